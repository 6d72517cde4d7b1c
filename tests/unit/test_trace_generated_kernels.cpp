// trace: what torchgen's generated autograd and ADInplaceOrView kernels check,
// in PyTorch's order, on the real 1.13.1 registry (issue 22). The expected
// outcomes are what Debian's live 1.13.1 did (tests/trace_goldens).
#include <doctest/doctest.h>

#include "load/load_registry.h"
#include "table/torch_messages.h"
#include "test_support.h"
#include "trace/trace.h"

namespace dispatchctl {
namespace {

Trace traced(const std::string& op, std::vector<std::string> tensors, bool no_grad = false) {
  const Registry& reg = test::builtin_registry("builtin:1.13.1");
  CallOptions options;
  options.tensors = std::move(tensors);
  options.no_grad = no_grad;
  const Operator* target = reg.find(op);
  REQUIRE(target);
  return trace_call(reg, *target, make_call_setup(reg.catalogue(), options));
}

std::vector<std::string> rows(const Trace& t) {
  std::vector<std::string> out;
  for (const Hop& h : t.hops) out.push_back(test::builtin_registry("builtin:1.13.1").catalogue().name(h.row.key));
  return out;
}

std::string first_line(const std::string& text) { return text.substr(0, text.find('\n')); }

}  // namespace

TEST_CASE("trace: an inference tensor's version bump raises once the call below returns") {
  const Trace t = traced("aten::add_.Tensor", {"cpu:inference", "cpu:inference"});
  CHECK(rows(t) == std::vector<std::string>{"ADInplaceOrView", "CPU", "ADInplaceOrView"});
  CHECK(t.outcome == Trace::End::Raised);
  CHECK_FALSE(t.assumed);
  CHECK(t.hops.back().action == HopAction::Raise);
  CHECK(t.hops.back().error == k_inplace_inference_error);
  // The CPU kernel runs first and could raise its own error: certain raise, caveated text.
  CHECK(t.error_caveat.find("the kernel at CPU") != std::string::npos);
}

TEST_CASE("trace: a missing kernel below the version bump raises first, as in PyTorch") {
  // Live 1.13.1: NotImplementedError: Could not run 'aten::zero_' with arguments from the 'QuantizedCPU' backend.
  const Trace t = traced("aten::zero_", {"quantized_cpu:inference"});
  CHECK(rows(t) == std::vector<std::string>{"ADInplaceOrView", "QuantizedCPU"});
  CHECK(t.outcome == Trace::End::Raised);
  // The first line as live 1.13.1 printed it (tests/trace_goldens/real_calls_1.13.1.json).
  CHECK(first_line(t.hops.back().error) ==
        "Could not run 'aten::zero_' with arguments from the 'QuantizedCPU' backend. This could be because the "
        "operator doesn't exist for this backend, or was omitted during the selective/custom build process (if "
        "using custom build). If you are a Facebook employee using PyTorch on mobile, please visit "
        "https://fburl.com/ptmfixes for possible resolutions. 'aten::zero_' is only available for these "
        "backends: [CPU, Meta, MkldnnCPU, SparseCPU, SparseMeta, SparseCsrCPU, BackendSelect, Python, "
        "FuncTorchDynamicLayerBackMode, Functionalize, Named, Conjugate, Negative, ZeroTensor, ADInplaceOrView, "
        "AutogradOther, AutogradCPU, AutogradCUDA, AutogradHIP, AutogradXLA, AutogradMPS, AutogradIPU, "
        "AutogradXPU, AutogradHPU, AutogradVE, AutogradLazy, AutogradMeta, AutogradPrivateUse1, "
        "AutogradPrivateUse2, AutogradPrivateUse3, AutogradNestedTensor, Tracer, AutocastCPU, AutocastCUDA, "
        "FuncTorchBatched, FuncTorchVmapMode, Batched, VmapMode, FuncTorchGradWrapper, PythonTLSSnapshot, "
        "FuncTorchDynamicLayerFrontMode, PythonDispatcher].");
}

TEST_CASE("trace: the written tensor is found after a Tensor[] argument") {
  // cat.out(Tensor[] tensors, int dim, *, Tensor(a!) out): live 1.13.1 accepts
  // an inference tensor among the inputs and refuses one as out=.
  const Trace input = traced("aten::cat.out", {"cpu:inference", "cpu", "cpu"});
  CHECK(input.outcome == Trace::End::Completed);
  const Trace out = traced("aten::cat.out", {"cpu", "cpu", "cpu:inference"});
  CHECK(out.outcome == Trace::End::Raised);
  CHECK(out.hops.back().error == k_inplace_inference_error);
}

TEST_CASE("trace: only a leaf that requires grad is refused in place, and only with grad mode on") {
  const Trace leaf = traced("aten::add_.Tensor", {"cpu:leaf", "cpu"});
  CHECK(leaf.outcome == Trace::End::Raised);
  CHECK(rows(leaf) == std::vector<std::string>{"AutogradCPU"});
  CHECK(leaf.hops.back().error == k_inplace_leaf_error);

  const Trace result = traced("aten::add_.Tensor", {"cpu:requires_grad", "cpu"});
  CHECK(result.outcome == Trace::End::Completed);
  CHECK(result.assumed);

  const Trace no_grad = traced("aten::add_.Tensor", {"cpu:leaf", "cpu"}, true);
  CHECK(no_grad.outcome == Trace::End::Completed);
  CHECK(no_grad.assumed);
}

TEST_CASE("trace: the autograd-not-implemented kernel refuses a written leaf that requires grad") {
  // bitwise_and.Tensor_out has no derivative formula: its autograd kernel is
  // autogradNotImplementedFallback(), which runs check_inplace on what it
  // writes; live 1.13.1 raised the leaf error before SparseCPU's missing row.
  const Trace t = traced("aten::bitwise_and.Tensor_out", {"sparse_cpu:leaf", "sparse_cpu:leaf", "sparse_cpu:leaf"});
  CHECK(rows(t) == std::vector<std::string>{"AutogradCPU"});
  CHECK(t.hops.back().error == k_inplace_leaf_error);
  const Trace no_grad = traced("aten::bitwise_and.Tensor_out", {"cpu:leaf", "cpu:leaf", "cpu:leaf"}, true);
  CHECK(no_grad.outcome == Trace::End::Completed);
  CHECK(no_grad.assumed);  // live 1.13.1: the CPU kernel refuses Float ("bitwise_and_cpu" not implemented)
}

TEST_CASE("trace: a differentiable out= operator refuses arguments that require grad") {
  // Live 1.13.1 raises "add(): functions with out=... arguments don't support
  // automatic differentiation ..." (add is differentiable by derivatives.yaml,
  // which builtin:1.13.1 carries as Registry::out_grad_check) for an input ...
  const Trace input = traced("aten::add.out", {"cpu:requires_grad", "cpu", "cpu"});
  CHECK(input.outcome == Trace::End::Raised);
  CHECK_FALSE(input.assumed);
  CHECK(rows(input) == std::vector<std::string>{"AutogradCPU"});
  CHECK(input.hops.back().error == out_requires_grad_error("aten::add.out"));
  CHECK(out_requires_grad_error("aten::add.out") ==
        "add(): functions with out=... arguments don't support automatic differentiation, but one of the "
        "arguments requires grad.");
  // ... and for the out= argument alone, before any kernel below runs (nested: no NestedTensorCPU kernel).
  const Trace out = traced("aten::add.out", {"nested_cpu", "nested_cpu", "nested_cpu:leaf"});
  CHECK(out.outcome == Trace::End::Raised);
  CHECK(out.hops.back().error == out_requires_grad_error("aten::add.out"));
  // compute_requires_grad honours GradMode: under no_grad the call goes on.
  const Trace no_grad = traced("aten::add.out", {"cpu:leaf", "cpu:leaf", "cpu:leaf"}, true);
  CHECK(no_grad.outcome == Trace::End::Completed);
  // argmax is in DONT_REQUIRE_DERIVATIVE: live 1.13.1 returns.
  const Trace argmax = traced("aten::argmax.out", {"cpu:requires_grad", "cpu"});
  CHECK(argmax.outcome == Trace::End::Completed);
}

TEST_CASE("trace: a hand-written autograd kernel may raise before the call goes on") {
  // copy_'s autograd kernel is VariableTypeManual.cpp's; live 1.13.1 refuses the
  // leaf there, before NestedTensorCPU's missing copy_ is reached.
  const Trace t = traced("aten::copy_", {"nested_cpu:leaf", "nested_cpu:leaf"});
  CHECK(t.outcome == Trace::End::Raised);
  CHECK(t.error_caveat.find("VariableTypeManual.cpp") != std::string::npos);
}

}  // namespace dispatchctl
