// The table algorithm of docs/dispatch-semantics.md §3.2, one rule at a time.
// Expected rows are the behaviour the spec records as verified on real
// PyTorch 2.14.1 and 1.13.1 builds.
#include <doctest/doctest.h>

#include "table/torch_text.h"
#include "table/table.h"
#include "test_support.h"

using namespace dispatchctl;

namespace {

// A manifest with one operator test::op carrying `kernels` (a JSON array
// body) and optional fallbacks.
std::unique_ptr<Registry> op_with(const std::string& kernels, const std::string& version = "2.14.1",
                                  const std::string& fallbacks = "[]") {
  return test::registry_from_json(R"({"dispatchctl_manifest": 1, "torch_version": ")" + version +
                                  R"(", "fallbacks": )" + fallbacks +
                                  R"(, "operators": [{"name": "test::op", "schema": "test::op(Tensor x) -> Tensor", "kernels": [)" +
                                  kernels + "]}]}");
}

struct RowView {
  std::string debug;
  std::string tag;
};

RowView row(const Registry& reg, std::string_view key) {
  const Row r = compute_row(reg, *reg.find("test::op"), *reg.catalogue().find(key));
  return {std::string(r.debug()), std::string(tag_text(r.rule))};
}

std::string k(const char* key, const char* fn) {
  return std::string(R"({"key": ")") + key + R"(", "kernel": ")" + fn + R"("})";
}

}  // namespace

TEST_CASE("table: dumpState and table of the §4.2 example") {
  auto reg = test::registry_from_json(test::read_test_data("../manifests/rules/spec_4_2_example.json"));
  const Operator& op = *reg->find("test::foo");
  std::string state;
  append_torch_state(state, reg->catalogue(), op);
  CHECK(state ==
        "name: test::foo\n"
        "schema: test::foo(Tensor x) -> Tensor\n"
        "debug: registered at /dev/null:0\n"
        "alias analysis kind: FROM_SCHEMA\n"
        "CPU: fn_cpu2 :: (Tensor _0) -> Tensor _0 [ boxed unboxed ]\n"
        "CPU (inactive): fn_cpu :: (Tensor _0) -> Tensor _0 [ boxed unboxed ]\n"
        "XLA: fn_xla :: (Tensor _0) -> Tensor _0 [ boxed unboxed ]\n"
        "SparseCPU: fn_sparsecpu :: (Tensor _0) -> Tensor _0 [ boxed unboxed ]\n"
        "Autograd[alias]: fn_ag :: (Tensor _0) -> Tensor _0 [ boxed unboxed ]\n"
        "CompositeImplicitAutograd[alias]: fn_math :: (Tensor _0) -> Tensor _0 [ boxed unboxed ]\n");
  const auto at = [&](const char* key) { return compute_row(*reg, op, *reg->catalogue().find(key)); };
  CHECK(at("CPU").debug() == "fn_cpu2");
  CHECK(at("Undefined").debug() == "fn_math");
  CHECK(tag_text(at("CUDA").rule) == "math kernel");
  // AutogradOther: CIA + SparseCPU (an autogradother backend) is ambiguous, Autograd alias or not.
  CHECK(tag_text(at("AutogradOther").rule) == "ambiguous autogradother");
  CHECK(at("AutogradOther").debug() == "ambiguous_autogradother");
  // A direct CPU/XLA kernel blocks the math kernel on AutogradCPU/XLA: the Autograd alias fills them.
  CHECK(tag_text(at("AutogradCPU").rule) == "autograd kernel");
  CHECK(tag_text(at("AutogradXLA").rule) == "autograd kernel");
  CHECK(tag_text(at("AutogradCUDA").rule) == "math kernel");
}

TEST_CASE("table: direct kernels win, the last registration on a key is active") {
  auto reg = op_with(k("CPU", "a") + "," + k("CompositeExplicitAutograd", "cea") + "," + k("CPU", "b"));
  CHECK(row(*reg, "CPU").debug == "b");
  CHECK(row(*reg, "CPU").tag == "kernel");
  CHECK(row(*reg, "CUDA").tag == "default backend kernel");
  CHECK(row(*reg, "Undefined").debug == "cea");
}

TEST_CASE("table: CEANF before CEA, and CEANF alone blocks nothing") {
  auto both = op_with(k("CompositeExplicitAutograd", "cea") + "," +
                      k("CompositeExplicitAutogradNonFunctional", "ceanf"));
  CHECK(row(*both, "CPU").debug == "ceanf");
  CHECK(row(*both, "XLA").debug == "cea");        // XLA is not in the CEANF set
  CHECK(row(*both, "SparseCPU").debug == "cea");  // nor Sparse*
  CHECK(row(*both, "Undefined").debug == "ceanf");
  auto ceanf_cia = op_with(k("CompositeExplicitAutogradNonFunctional", "ceanf") + "," +
                           k("CompositeImplicitAutograd", "math"));
  CHECK(row(*ceanf_cia, "XLA").tag == "math kernel");
  CHECK(row(*ceanf_cia, "AutogradCPU").tag == "math kernel");
  CHECK(row(*ceanf_cia, "NestedTensorCPU").tag == "math kernel");
}

TEST_CASE("table: a CEA kernel keeps the math kernel off every key CEA does not cover") {
  auto reg = op_with(k("CompositeExplicitAutograd", "cea") + "," + k("CompositeImplicitAutograd", "math"),
                     "2.14.1", R"([{"key": "AutogradCPU", "kernel": "ag_fallback"}])");
  CHECK(row(*reg, "AutogradCPU").tag == "backend fallback");
  CHECK(row(*reg, "AutogradCUDA").tag == "missing");
  CHECK(row(*reg, "AutogradOther").tag == "missing");  // a CEA kernel does not make it ambiguous
  CHECK(row(*reg, "NestedTensorCPU").tag == "missing");
  CHECK(row(*reg, "CPU").tag == "default backend kernel");
}

TEST_CASE("table: nested kernels are never blocked; FTBD fills FuncTorchBatched only") {
  auto reg = op_with(k("CompositeExplicitAutograd", "cea") + "," +
                     k("CompositeImplicitAutogradNestedTensor", "nested") + "," +
                     k("FuncTorchBatchedDecomposition", "batched"));
  CHECK(row(*reg, "NestedTensorCPU").tag == "nested kernel");
  CHECK(row(*reg, "AutogradNestedTensor").tag == "nested kernel");
  CHECK(row(*reg, "Undefined").debug == "cea");  // CIANT never fills Undefined
  CHECK(row(*reg, "FuncTorchBatched").tag == "batched kernel");
  CHECK(row(*reg, "Batched").tag == "missing");
}

TEST_CASE("table: HIP/VE/MTIA kernels do not block the math kernel on their autograd key (quirk)") {
  auto reg = op_with(k("HIP", "hip") + "," + k("VE", "ve") + "," + k("MTIA", "mtia") + "," +
                     k("CUDA", "cuda") + "," + k("CompositeImplicitAutograd", "math"));
  CHECK(row(*reg, "AutogradHIP").tag == "math kernel");
  CHECK(row(*reg, "AutogradVE").tag == "math kernel");
  CHECK(row(*reg, "AutogradMTIA").tag == "math kernel");
  CHECK(row(*reg, "AutogradCUDA").tag == "missing");
}

TEST_CASE("table: building blocks fill no row but count for hasAny (quirk)") {
  auto dense = op_with(k("Dense", "dense") + "," + k("CompositeImplicitAutograd", "math"));
  CHECK(row(*dense, "CPU").tag == "math kernel");
  CHECK(row(*dense, "AutogradCPU").tag == "missing");
  CHECK(row(*dense, "AutogradHIP").tag == "math kernel");
  CHECK(row(*dense, "AutogradOther").tag == "math kernel");
  CHECK(row(*dense, "AutogradNestedTensor").tag == "math kernel");
  auto sparse = op_with(k("Sparse", "sparse") + "," + k("CompositeImplicitAutograd", "math"));
  CHECK(row(*sparse, "AutogradOther").tag == "ambiguous autogradother");
}

TEST_CASE("table: a catch-all (Undefined) registration is stored as CompositeImplicitAutograd") {
  auto reg = op_with(k("Undefined", "catchall"));
  const Operator& op = *reg->find("test::op");
  CHECK(op.has(*reg->catalogue().find("CompositeImplicitAutograd")));
  CHECK(row(*reg, "Undefined").tag == "math kernel");
  CHECK(row(*reg, "CPU").debug == "catchall");
}

TEST_CASE("table: fallthrough kernels propagate and print with the prefix") {
  auto reg = op_with(R"({"key": "CompositeExplicitAutograd", "kernel": "ft", "fallthrough": true})");
  std::string table;
  append_torch_table(table, reg->catalogue(), compute_table(*reg, *reg->find("test::op")));
  CHECK(table.rfind("Undefined: fallthrough ft [default backend kernel]\nCPU: fallthrough ft [default backend kernel]\n", 0) == 0);
}

TEST_CASE("table: backend fallbacks fill rows no alias reaches; missing rows are not printed") {
  auto reg = op_with(k("CPU", "cpu"), "2.14.1",
                     R"([{"key": "BackendSelect", "kernel": "bs", "fallthrough": true}, {"key": "Meta", "kernel": "meta_fb"}])");
  std::string table;
  append_torch_table(table, reg->catalogue(), compute_table(*reg, *reg->find("test::op")));
  CHECK(table == "CPU: cpu [kernel]\nMeta: meta_fb [backend fallback]\n"
                 "BackendSelect: fallthrough bs [backend fallback]\n");
}

TEST_CASE("table: 1.13 has no FTBD, SparseCsrCPU is an autogradother backend") {
  auto reg = op_with(k("SparseCsrCPU", "csr") + "," + k("CompositeImplicitAutograd", "math"), "1.13.1");
  CHECK(row(*reg, "AutogradOther").tag == "ambiguous autogradother");
  CHECK(row(*reg, "AutogradCPU").tag == "math kernel");
  CHECK_THROWS_AS(op_with(k("FuncTorchBatchedDecomposition", "x"), "1.13.1"), InputError);
}

TEST_CASE("table: explanations record every rule tried") {
  auto reg = op_with(k("CPU", "cpu") + "," + k("CompositeImplicitAutograd", "math"));
  Explanation why;
  const Row r = compute_row(*reg, *reg->find("test::op"), *reg->catalogue().find("AutogradCPU"), &why);
  CHECK(r.rule == Rule::Missing);
  bool saw_blocked = false;
  for (const auto& step : why.steps) {
    if (step.rule == Rule::CompositeImplicitAutograd && step.outcome == Explanation::StepResult::Blocked) {
      saw_blocked = true;
      REQUIRE(step.blockers.size() == 1);
      CHECK(reg->catalogue().name(step.blockers[0]) == "CPU");
    }
  }
  CHECK(saw_blocked);
  CHECK(why.steps.back().rule == Rule::Missing);
}
