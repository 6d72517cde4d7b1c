// Issue 33: the core opsets built in (lib/builtin/data/torch-*/opset-core.txt,
// recorded from live PyTorch 2.14.1 and 2.6.0 by tools/record-model-ops.py
// --tag core) are exactly the functions that release's native_functions.yaml
// tags `core`, read with torchgen's parser: two records of the same release
// fact that must agree. And the list grammar of --ops-from.
#include <doctest/doctest.h>

#include <set>
#include <string>

#include "builtin/builtin_catalogues.h"
#include "builtin/opsets.h"
#include "load/operator_set.h"
#include "test_support.h"
#include "torchgen/release_rules.h"
#include "torchgen_support.h"

using namespace dispatchctl;

namespace {
std::set<std::string> yaml_core_functions(const std::string& folder, const std::string& release) {
  const torchgen::ReleaseRules& rules = torchgen::rules_for_any_release(release, "test");
  const Catalogue& catalogue = *builtin_catalogue(release);
  torchgen::ParseOptions options{&rules, &catalogue, {"CPU"}};
  const torchgen::TorchgenModel model = torchgen::parse_torchgen_inputs(test::torchgen_inputs(folder), options);
  std::set<std::string> out;
  for (const auto& f : model.functions)
    if (f.tags.count("core")) out.insert("aten::" + f.name());
  return out;
}
}  // namespace

TEST_CASE("opsets: the built-in core opsets are the YAML's core tags") {
  for (const auto& [folder, release, count] :
       {std::tuple{"2.14.1", "2.14.1", size_t{193}}, std::tuple{"2.6.0+cuda", "2.6.0", size_t{189}}}) {
    const std::string release_name = release;  // clang 14 cannot capture a structured binding (CAPTURE's lambda)
    CAPTURE(release_name);
    const OperatorSet recorded = builtin_operator_set(release, "core");
    const std::set<std::string> names(recorded.names.begin(), recorded.names.end());
    CHECK(names.size() == count);
    CHECK(names == yaml_core_functions(folder, release));
    CHECK(names.count("aten::addmm"));  // the default overload, written bare
    CHECK(!names.count("aten::addmm.out"));
  }
  CHECK(find_builtin_opset("2.14.1+debian", "core") != nullptr);
  CHECK(find_builtin_opset("1.13.1", "core") == nullptr);  // the tag came with 2.x
}

TEST_CASE("opsets: an operator list is exact overload names") {
  const OperatorSet set = parse_operator_list(
      "# header\naten::addmm\n  aten.silu.default  # python's name\ntorch.ops.aten.add.Tensor\n\naten::addmm\n", "l.txt");
  CHECK(set.names == std::vector<std::string>{"aten::add.Tensor", "aten::addmm", "aten::silu"});
  CHECK(exact_pattern("aten::addmm") == "aten::addmm.default");
  CHECK(exact_pattern("aten::add.Tensor") == "aten::add.Tensor");
  CHECK(test::input_error_of([] { parse_operator_list("aten::add.Tensor\naten::add*\n", "l.txt"); })
            .starts_with("l.txt:2: 'aten::add*' is a pattern"));
  CHECK(test::input_error_of([] { parse_operator_list("addmm\n", "l.txt"); }).starts_with("l.txt:1: 'addmm' is not"));
  CHECK(test::input_error_of([] { parse_operator_list("# nothing\n", "l.txt"); }).starts_with("l.txt: no operator"));
}
