// trace: which schema argument each tensor of a call is (trace/bind_arguments.h),
// and the verdicts that hang on it, on the real 1.13.1 registry. Where a
// verdict depends on the binding, what Debian's live torch 1.13.1 did is in the
// comment (the same calls are tests/cli/cases/trace.toml's binding cases).
#include <doctest/doctest.h>

#include "load/load_registry.h"
#include "table/torch_messages.h"
#include "test_support.h"
#include "trace/bind_arguments.h"
#include "trace/trace.h"

namespace dispatchctl {
namespace {


const Operator& op(const std::string& name) {
  const Operator* found = test::builtin_registry("builtin:1.13.1").find(name);
  REQUIRE(found);
  return *found;
}

using Names = std::vector<std::string>;
using Written = std::vector<bool>;

Trace traced(const std::string& name, CallOptions options) {
  return trace_call(test::builtin_registry("builtin:1.13.1"), op(name), make_call_setup(test::builtin_registry("builtin:1.13.1").catalogue(), options));
}

}  // namespace

TEST_CASE("bind: a left-out Tensor? does not move which tensor is out=") {
  // clamp.Tensor_out(Tensor self, Tensor? min=None, Tensor? max=None, *, Tensor(a!) out)
  const Operator& clamp = op("aten::clamp.Tensor_out");
  TensorBinding b = bind_tensor_arguments(clamp, 2);
  CHECK(b.names == Names{"self", "out"});
  CHECK(b.written == Written{false, true});
  CHECK(b.out_operator);
  b = bind_tensor_arguments(clamp, 3);  // the first Tensor? is given, as Python's positional min
  CHECK(b.names == Names{"self", "min", "out"});
  CHECK(b.written == Written{false, false, true});
  CHECK(bind_tensor_arguments(clamp, 4).names == Names{"self", "min", "max", "out"});
  CHECK(test::input_error_of([&] { bind_tensor_arguments(clamp, 1); }) ==
        "trace: aten::clamp.Tensor_out takes 2 to 4 Tensor arguments (self, min?, max?, out) but 1 were given; "
        "pass one --tensor or --keyset per Tensor argument, in order");
}

TEST_CASE("bind: two Tensor[] arguments take as many tensors each") {
  // _foreach_add_.List(Tensor(a!)[] self, Tensor[] other, *, Scalar alpha=1)
  const Operator& add = op("aten::_foreach_add_.List");
  const TensorBinding b = bind_tensor_arguments(add, 4);
  CHECK(b.names == Names{"self", "self", "other", "other"});
  CHECK(b.written == Written{true, true, false, false});
  CHECK_FALSE(b.out_operator);
  CHECK(test::input_error_of([&] { bind_tensor_arguments(add, 3); }).find("take the same number of tensors each") !=
        std::string::npos);
}

TEST_CASE("bind: a count a Tensor? and a Tensor[] could both take is refused, not guessed") {
  // _backward(Tensor self, Tensor[] inputs, Tensor? gradient=None, ...): is the second tensor inputs or gradient?
  const std::string error = test::input_error_of([] { bind_tensor_arguments(op("aten::_backward"), 2); });
  CHECK(error.find("fit aten::_backward's Tensor arguments more than one way") != std::string::npos);
  CHECK(error.find("(gradient?)") != std::string::npos);
  CHECK(error.find("(inputs[])") != std::string::npos);
  CHECK(bind_tensor_arguments(op("aten::_backward"), 1).names == Names{"self"});
}

TEST_CASE("bind: a callee gets the caller's tensors in order when they do not fit it") {
  // add.Tensor's generated composite calls add.out with self and other; out is made inside.
  const TensorBinding b = bind_passed_tensors(op("aten::add.out"), 2);
  CHECK(b.names == Names{"self", "other"});
  CHECK(b.written == Written{false, false});
}

TEST_CASE("trace: --keyset and --tensor tensors are the arguments in the command line's order") {
  // Live 1.13.1: a normal tensor's add_ of an inference tensor returns; the inference tensor's own add_ raises.
  CallOptions keyset_first;
  keyset_first.tensors = {"cpu:inference"};
  keyset_first.keysets = {"CPU,ADInplaceOrView,AutogradCPU"};
  keyset_first.order = {CallOptions::Form::Keyset, CallOptions::Form::Preset};
  const CallSetup setup = make_call_setup(test::builtin_registry("builtin:1.13.1").catalogue(), keyset_first);
  REQUIRE(setup.arguments.size() == 2);
  CHECK(setup.arguments[0].spec == "--keyset CPU,ADInplaceOrView,AutogradCPU");
  CHECK(setup.arguments[1].inference);
  CHECK(traced("aten::add_.Tensor", keyset_first).outcome == Trace::End::Completed);
  CallOptions tensor_first = keyset_first;
  tensor_first.order = {CallOptions::Form::Preset, CallOptions::Form::Keyset};
  const Trace raised = traced("aten::add_.Tensor", tensor_first);
  CHECK(raised.outcome == Trace::End::Raised);
  CHECK(raised.hops.back().error == k_inplace_inference_error);
  // Without an order (the Python module, trace --calls): the presets, then the key sets.
  tensor_first.order.clear();
  CHECK(traced("aten::add_.Tensor", tensor_first).outcome == Trace::End::Raised);
}

TEST_CASE("trace: an inference out= after a left-out Tensor? is written") {
  // Live 1.13.1: torch.ops.aten.clamp.Tensor_out(x, m, None, out=inference) raises the version-bump error.
  CallOptions o;
  o.tensors = {"cpu", "cpu", "cpu:inference"};
  const Trace t = traced("aten::clamp.Tensor_out", o);
  CHECK(t.outcome == Trace::End::Raised);
  CHECK(t.hops.back().error == k_inplace_inference_error);
}

TEST_CASE("trace: an inference tensor in the second Tensor[] is read, not written") {
  // Live 1.13.1: torch._foreach_add_([n, n], [n, inference]) returns; ([n, inference], [n, n]) raises.
  CallOptions o;
  o.tensors = {"cpu", "cpu", "cpu", "cpu:inference"};
  CHECK(traced("aten::_foreach_add_.List", o).outcome != Trace::End::Raised);
  o.tensors = {"cpu", "cpu:inference", "cpu", "cpu"};
  const Trace t = traced("aten::_foreach_add_.List", o);
  CHECK(t.outcome == Trace::End::Raised);
  CHECK(t.hops.back().error == k_inplace_inference_error);
}

}  // namespace dispatchctl
