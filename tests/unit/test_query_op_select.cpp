// Which operators an OP argument names (issue 11 item 10).
#include <doctest/doctest.h>

#include "load/selection.h"
#include "builtin/builtin_catalogues.h"
#include "registry/op_select.h"
#include "load/load_registry.h"
#include "test_support.h"
#include "util/errors.h"
#include "util/suggest.h"

using namespace dispatchctl;

namespace {
std::vector<std::string> names_of(const std::vector<const Operator*>& ops) {
  std::vector<std::string> out;
  for (const Operator* op : ops) out.push_back(op->name);
  return out;
}
std::string error_of(const Registry& reg, const std::string& pattern) {
  return test::input_error_of([&] { (void)select_operators(reg, {pattern}); });
}
}  // namespace

TEST_CASE("op selection: bare names, Python spellings, globs that match nothing") {
  Registry reg(*builtin_catalogue("2.14.1"), "2.14.1");
  for (const char* name : {"aten::nonzero", "aten::nonzero.out", "aten::nonzero_static", "aten::add.Tensor"})
    reg.declare(name);
  CHECK(names_of(select_operators(reg, {"aten::nonzero"})) == std::vector<std::string>{"aten::nonzero", "aten::nonzero.out"});
  CHECK(names_of(select_operators(reg, {"aten::nonzero.default"})) == std::vector<std::string>{"aten::nonzero"});
  CHECK(names_of(select_operators(reg, {"torch.ops.aten.add.Tensor"})) == std::vector<std::string>{"aten::add.Tensor"});
  CHECK(names_of(select_operators(reg, {"aten.add.Tensor"})) == std::vector<std::string>{"aten::add.Tensor"});
  CHECK(canonical_op_pattern("torch.ops.aten.add") == "aten::add");
  CHECK(error_of(reg, "aten::nonzeor*").find("no operator matches 'aten::nonzeor*'") != std::string::npos);
  CHECK(error_of(reg, "aten::nonzeor*").find("did you mean 'aten::nonzero'") != std::string::npos);
}

TEST_CASE("did-you-mean: a name cut short suggests the shortest name it starts") {
  const std::vector<std::string_view> keys = {"CompositeExplicitAutograd", "CompositeExplicitAutogradNonFunctional",
                                              "CompositeImplicitAutograd"};
  CHECK(closest_match("CompositeExplicit", keys) == std::optional<std::string>("CompositeExplicitAutograd"));
  CHECK(!closest_match("Com", keys));  // too short to mean anything
}

TEST_CASE("op selection: loading only what the patterns can match selects what the whole registry selects") {
  // load_and_select tells the built-in pack each pattern's name prefix, and
  // the pack reads only those name ranges; the answer must not change.
  const auto whole = load_registry({"builtin:2.14.1"});
  const std::vector<std::vector<std::string>> cases = {
      {"aten::add"},        {"aten::add.Tensor"}, {"torch.ops.aten.add.Tensor"}, {"aten.nonzero"},
      {"aten::sin.default"}, {"aten::add*"},      {"aten::[ab]dd*"},             {"*::add.out"},
      {"aten::mul", "aten::add", "aten::mul.Tensor"}, {"prims::*"}};
  for (const auto& patterns : cases) {
    CAPTURE(patterns);
    const Selection some = load_and_select(LoadRequest{{"builtin:2.14.1"}}, patterns);
    CHECK(names_of(some.operators) == names_of(select_operators(*whole, patterns)));
    CHECK(some.registry->fallbacks().size() == whole->fallbacks().size());
  }
  // add's overloads and the operators their recorded composites call (graphs
  // are followed at load), not the registry's 3,000+.
  CHECK(load_and_select(LoadRequest{{"builtin:2.14.1"}}, {"aten::add"}).registry->operators().size() < 20);
}
