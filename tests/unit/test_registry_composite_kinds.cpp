// A composite-calls file's "kinds" sections (docs/composite-calls.md): read,
// followed only at the kind's keys, written back, and refused when the key is
// not a runtime key.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "registry/composite_calls.h"
#include "table/outcome.h"
#include "test_support.h"

using namespace dispatchctl;

namespace {

// myops::spread's composite calls myops::inner, which only CPU implements; the
// recording says so on CPU (main, backend CPU) and calls myops::sparse_only on
// sparse tensors, which nothing implements.
const char* k_manifest = R"J({"dispatchctl_manifest": 1, "torch_version": "2.14.1", "operators": [
  {"name": "myops::inner", "schema": "myops::inner(Tensor self) -> Tensor",
   "kernels": [{"key": "CPU", "kernel": "inner_cpu"}, {"key": "SparseCPU", "kernel": "inner_sparse"}]},
  {"name": "myops::sparse_only", "schema": "myops::sparse_only(Tensor self) -> Tensor",
   "kernels": [{"key": "CUDA", "kernel": "sparse_only_cuda"}]},
  {"name": "myops::spread", "schema": "myops::spread(Tensor self) -> Tensor",
   "kernels": [{"key": "CompositeExplicitAutograd", "kernel": "spread_composite"}]}]})J";

const char* k_calls = R"J({"format": "dispatchctl-composite-calls", "version": 1, "backend": "CPU",
  "kernels": [{"op": "myops::spread", "key": "CompositeExplicitAutograd", "samples": 3,
               "calls": [{"op": "myops::inner", "when": "always"}]}],
  "kinds": [{"key": "SparseCPU", "tensors": "sparse_cpu", "kernels": [
    {"op": "myops::spread", "key": "CompositeExplicitAutograd", "samples": 3,
     "calls": [{"op": "myops::sparse_only", "when": "always"}]}]}]})J";

RowVerdict followed(const Registry& reg, std::string_view key) {
  const Operator& op = *reg.find("myops::spread");
  const Key k = *reg.catalogue().find(key);
  const RowOutcome o = classify_followed(reg, op, compute_row(reg, op, k),
                                         [&](const Operator& o2, Key at) { return compute_row(reg, o2, at); });
  return outcome_verdict(o.outcome);
}

}  // namespace

TEST_CASE("composite calls recorded per kind of tensor hold at that kind's key only") {
  auto reg = test::registry_from_json(k_manifest);
  CHECK(apply_composite_calls_text(*reg, k_calls, "calls.json") == 2);
  const Kernel& kernel = *reg->find("myops::spread")->active(*reg->catalogue().find("CompositeExplicitAutograd"));
  const Key sparse = *reg->catalogue().find("SparseCPU");
  REQUIRE(reg->kind_composite_calls(kernel, sparse));
  CHECK(reg->kind_composite_calls(kernel, sparse)->calls.at(0).op == "myops::sparse_only");
  CHECK(recorded_calls_on(*reg, kernel, *reg->catalogue().find("CPU")) == reg->composite_calls(kernel));
  // Dense CPU and the autograd key above it follow the main recording (inner: works);
  // SparseCPU its own (sparse_only: no kernel there); a kind not recorded: nothing.
  CHECK(followed(*reg, "CPU") == RowVerdict::Works);
  CHECK(followed(*reg, "AutogradCPU") == RowVerdict::Works);
  CHECK(followed(*reg, "SparseCPU") == RowVerdict::Fails);
  CHECK(recorded_calls_at(*reg, kernel, *reg->catalogue().find("QuantizedCPU")) == nullptr);
  // Written back with its kinds, and read again the same.
  const auto written = composite_calls_json(*reg);
  REQUIRE(written.contains("kinds"));
  CHECK(written["kinds"][0]["key"] == "SparseCPU");
  auto again = test::registry_from_json(k_manifest);
  CHECK(apply_composite_calls(*again, written, "written", "") == 2);
  CHECK(followed(*again, "SparseCPU") == RowVerdict::Fails);
}

TEST_CASE("a kind's key must be a runtime key") {
  auto reg = test::registry_from_json(k_manifest);
  std::string bad = k_calls;
  bad.replace(bad.find("\"SparseCPU\""), 11, "\"Sparse\"");
  CHECK(test::input_error_of([&] { apply_composite_calls_text(*reg, bad, "calls.json"); }) ==
        "calls.json: /kinds/0/key: 'Sparse' is not a runtime dispatch key of PyTorch 2.14.1 (the key a kind's "
        "tensors carry, e.g. SparseCPU, NestedTensorCPU)");
}
