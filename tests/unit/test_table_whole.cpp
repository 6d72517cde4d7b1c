// compute_table (precomputed key masks, table/key_masks.h) must give exactly
// the rows of compute_row (the rules tried one by one, as explain shows
// them) for every runtime key of every operator of both real registries,
// and of small registries exercising each rule.
#include <doctest/doctest.h>

#include "load/load_registry.h"
#include "table/table.h"
#include "test_support.h"

using namespace dispatchctl;

namespace {

bool same_row(const Row& a, const Row& b) {
  return a.key == b.key && a.rule == b.rule && a.kernel == b.kernel && a.fallback == b.fallback &&
         a.provider == b.provider;
}

// Rows where compute_table, or TableComputer (one reused for every operator,
// as the whole-registry job does), disagrees with compute_row.
size_t rows_differing(const Registry& registry) {
  size_t differing = 0;
  TableComputer computer(registry);
  for (const Operator& op : registry.operators()) {
    const std::vector<Row> table = compute_table(registry, op);
    const std::vector<Row>& reused = computer.compute(op);
    const auto& keys = registry.catalogue().runtime_keys();
    REQUIRE(table.size() == keys.size());
    REQUIRE(reused.size() == keys.size());
    for (size_t i = 0; i < keys.size(); ++i) {
      Explanation why;
      const Row one = compute_row(registry, op, keys[i], &why);
      const Row& fast = table[i];
      const bool same = same_row(one, fast) && same_row(one, reused[i]);
      if (!same) {
        if (differing == 0)
          MESSAGE(op.name << " " << registry.catalogue().name(keys[i]) << ": explained rule "
                          << tag_id(one.rule) << ", table rule " << tag_id(fast.rule));
        ++differing;
      }
    }
  }
  return differing;
}

}  // namespace

TEST_CASE("compute_table equals compute_row on every row of the real registries") {
  for (std::string version : {"2.14.1", "1.13.1"}) {
    CAPTURE(version);
    auto registry = load_registry({"builtin:" + version});
    CHECK(rows_differing(*registry) == 0);
  }
}

TEST_CASE("compute_table equals compute_row on the rule-by-rule manifests") {
  // Each alias alone, CIA with a backend kernel, the AutogradOther ambiguity, fallbacks.
  const char* manifests[] = {
      R"({"dispatchctl_manifest": 1, "torch_version": "2.14.1", "operators": [{"name": "t::a", "schema": "t::a(Tensor x) -> Tensor",
          "kernels": [{"key": "CompositeImplicitAutograd", "kernel": "cia"}, {"key": "SparseCPU", "kernel": "sp"}]}],
          "fallbacks": [{"key": "AutogradCPU", "kernel": "fb", "fallthrough": true}]})",
      R"({"dispatchctl_manifest": 1, "torch_version": "2.14.1", "operators": [{"name": "t::b", "schema": "t::b(Tensor x) -> Tensor",
          "kernels": [{"key": "CompositeImplicitAutograd", "kernel": "cia"}, {"key": "CompositeExplicitAutograd", "kernel": "cea"},
                      {"key": "Autograd", "kernel": "ag"}, {"key": "FuncTorchBatchedDecomposition", "kernel": "b"}]}]})",
      R"({"dispatchctl_manifest": 1, "torch_version": "1.13.1", "operators": [{"name": "t::c", "schema": "t::c(Tensor x) -> Tensor",
          "kernels": [{"key": "CompositeExplicitAutogradNonFunctional", "kernel": "nf"}, {"key": "CPU", "kernel": "cpu"},
                      {"key": "CompositeImplicitAutogradNestedTensor", "kernel": "n"}]}]})",
  };
  for (const char* json : manifests) {
    CAPTURE(json);
    auto registry = test::registry_from_json(json);
    CHECK(rows_differing(*registry) == 0);
  }
}
