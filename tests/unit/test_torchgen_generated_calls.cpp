// What torchgen's generated composite kernels call (issue 22): the built-in
// registries carry it (recorded at build time from the release's YAML), and
// for 1.13.1 it equals what REAL torchgen 1.13.1 says
// (tests/data/generated_calls/torch-1.13.1.json, recorded by
// record_generated_calls.py with Debian's torchgen, not dispatchctl).
#include <doctest/doctest.h>

#include <set>
#include <tuple>

#include <nlohmann/json.hpp>

#include "load/load_registry.h"
#include "test_support.h"
#include "torchgen/generated_calls.h"

using namespace dispatchctl;

namespace {

using Call = std::tuple<std::string, std::string, std::string, std::string>;  // op, key, callee, kind

// The generated calls of every active kernel of the registry.
std::set<Call> registry_calls(const Registry& reg) {
  std::set<Call> out;
  const Catalogue& cat = reg.catalogue();
  for (const Operator& op : reg.operators())
    for (const auto& kk : op.by_key())
      if (const GeneratedCall* call = reg.generated_call(*op.active(kk.key)))
        out.emplace(op.name, cat.name(kk.key), call->callee, generated_call_kind_id(call->kind));
  return out;
}

}  // namespace

TEST_CASE("generated calls: builtin:1.13.1 records exactly what real torchgen 1.13.1 generates") {
  auto reg = load_registry({"builtin:1.13.1"});
  const auto golden = nlohmann::json::parse(test::read_test_data("generated_calls/torch-1.13.1.json"));
  std::set<Call> want;
  for (const auto& c : golden["calls"])
    if (reg->find(c["op"].get<std::string>()))  // an operator of the YAML the build has
      want.emplace(c["op"], c["key"], c["calls"], c["kind"]);
  const std::set<Call> got = registry_calls(*reg);
  CHECK(want.size() > 800);
  std::vector<Call> missing, extra;
  for (const auto& c : want)
    if (!got.count(c)) missing.push_back(c);
  for (const auto& c : got)
    if (!want.count(c)) extra.push_back(c);
  for (const auto& c : missing) INFO("not recorded: " << std::get<0>(c) << " -> " << std::get<2>(c));
  CHECK(missing.empty());
  CHECK(extra.empty());
  if (!missing.empty()) MESSAGE("first not recorded: " << std::get<0>(missing[0]) << " " << std::get<1>(missing[0]));
  if (!extra.empty()) MESSAGE("first extra: " << std::get<0>(extra[0]) << " " << std::get<1>(extra[0]));
}

TEST_CASE("generated calls: builtin:2.14.1 records add.Tensor -> add.out; hand-written composites none") {
  auto reg = load_registry({"builtin:2.14.1"});
  const std::set<Call> got = registry_calls(*reg);
  CHECK(got.count({"aten::add.Tensor", "CompositeExplicitAutogradNonFunctional", "aten::add.out", "structured_out"}));
  CHECK(got.count({"aten::add_.Tensor", "CompositeExplicitAutogradNonFunctional", "aten::add.out", "structured_out"}));
  // docs/torchgen-rules.md §3: 388 structured-ceanf, 518 generated-cea registrations in 2.14.1.
  CHECK(got.size() == 388 + 518);
  for (const auto& c : got) {
    INFO(std::get<0>(c));
    CHECK(reg->find(std::get<2>(c)) != nullptr);  // every callee is an operator of the build
  }
}
