// trace --backward and has-kernel's backward answer (trace/backward.h,
// table/backward_plan.h) on small PrivateUse1 backends layered over
// builtin:2.14.1: x a leaf on the backend that requires grad, neg(x), then
// out.sum().backward() (3 elements) or out.backward() (0-dim). The outcomes
// are live 2.14.1's, on Python backends holding exactly these kernels
// (tests/composite_calls/record_backward_cases.py, in the sid chroot):
//   no fill_.Scalar:      both forms raise at fill_.Scalar (the seed's ones_like)
//   no sum.IntList_out:   3 elements raise there (out.sum()); 0-dim returns
//   no as_strided:        3 elements raise there (SumBackward0's expand); 0-dim returns
//   all four:             both return
#include <doctest/doctest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <unistd.h>

#include "load/load_registry.h"
#include "query/has_kernel_backward.h"
#include "query/predicates.h"
#include "trace/backward.h"

using namespace dispatchctl;

namespace {

std::string manifest(const std::vector<std::string>& ops, const std::string& extra = "") {
  std::string text = R"({"dispatchctl_manifest": 1, "torch_version": "2.14.1", "operators": [)";
  std::vector<std::string> all = {"aten::empty.memory_format", "aten::empty_strided"};
  all.insert(all.end(), ops.begin(), ops.end());
  for (std::size_t i = 0; i < all.size(); ++i)
    text += std::string(i ? "," : "") + R"({"name": ")" + all[i] +
            R"(", "kernels": [{"key": "PrivateUse1", "kernel": "registered at backend.py:1"}]})";
  return text + "]" + extra + "}";
}

std::unique_ptr<Registry> backend(const std::vector<std::string>& ops, const std::string& extra = "") {
  static int made = 0;
  const std::string path = (std::filesystem::temp_directory_path() /
                            ("dispatchctl_backward_" + std::to_string(getpid()) + "_" + std::to_string(++made) + ".json"))
                               .string();
  std::ofstream(path) << manifest(ops, extra);
  auto reg = load_registry({"builtin:2.14.1", path});
  std::remove(path.c_str());
  return reg;
}

BackwardTrace neg_backward(const Registry& reg, BackwardForm form) {
  const Operator& neg = *reg.find("aten::neg");
  CallOptions options;
  options.tensors = {"privateuse1:leaf"};
  const CallSetup setup = make_call_setup(reg.catalogue(), options);
  return trace_backward(reg, neg, setup, trace_call(reg, neg, setup), form);
}

std::optional<HasKernelBackward> neg_has_kernel(const Registry& reg) {
  const Operator& neg = *reg.find("aten::neg");
  const Key k = *reg.catalogue().find("PrivateUse1");
  const HasKernelResult forward = answer_has_kernel(reg, neg, k, HasKernelQuestion::Works, build_backends(reg));
  return answer_has_kernel_backward(reg, neg, k, forward);
}

void check_raises(const BackwardTrace& b, const std::string& at, BackwardPhase phase) {
  REQUIRE(b.start == BackwardTrace::Start::Runs);
  REQUIRE(b.verdict.outcome == BackwardVerdict::End::Raised);
  CHECK_FALSE(b.verdict.assumed);
  CHECK(b.verdict.raises_at == at);
  CHECK(b.verdict.error.rfind("Could not run '" + at + "' with arguments from the 'PrivateUse1' backend.", 0) == 0);
  CHECK(b.steps.back().step.phase == phase);
}

void check_returns(const BackwardTrace& b) {
  REQUIRE(b.start == BackwardTrace::Start::Runs);
  CHECK(b.verdict.outcome == BackwardVerdict::End::Completed);
  CHECK(b.verdict.assumed);  // AccumulateGrad is never recorded
}

}  // namespace

TEST_CASE("trace --backward: a backend without fill_.Scalar raises at the gradient seed, in both forms") {
  const auto reg = backend({"aten::neg", "aten::sum.IntList_out", "aten::as_strided"});
  const BackwardTrace sum = neg_backward(*reg, BackwardForm::Sum);
  check_raises(sum, "aten::fill_.Scalar", BackwardPhase::Seed);
  // Before the seed, out.sum() ran (and returned, if the backend's kernel does).
  CHECK(sum.steps.front().step.phase == BackwardPhase::SumForward);
  // A complex output is refused by Python before the seed: the text's caveat.
  CHECK(sum.verdict.error_caveat.find("grad can be implicitly created") != std::string::npos);
  check_raises(neg_backward(*reg, BackwardForm::Seed), "aten::fill_.Scalar", BackwardPhase::Seed);
  const auto answer = neg_has_kernel(*reg);
  REQUIRE(answer);
  CHECK(answer->answer == HasKernelAnswer::No);
  CHECK_FALSE(answer->assumed);  // the seed runs whatever the output's shape
  REQUIRE(answer->raises_at);
  CHECK(answer->raises_at->name == "aten::fill_.Scalar");
}

TEST_CASE("trace --backward: without sum.IntList_out out.sum() raises; a 0-dim out.backward() returns") {
  const auto reg = backend({"aten::neg", "aten::fill_.Scalar", "aten::as_strided"});
  const BackwardTrace sum = neg_backward(*reg, BackwardForm::Sum);
  check_raises(sum, "aten::sum.IntList_out", BackwardPhase::SumForward);
  // out.sum() runs before Python looks at the output's dtype.
  CHECK(sum.verdict.error_caveat.find("grad can be implicitly created") == std::string::npos);
  check_returns(neg_backward(*reg, BackwardForm::Seed));
  const auto answer = neg_has_kernel(*reg);
  REQUIRE(answer);
  CHECK(answer->answer == HasKernelAnswer::No);
  CHECK(answer->assumed);  // only for an output that is not 0-dim
}

TEST_CASE("trace --backward: without as_strided SumBackward0's expand raises; a 0-dim out.backward() returns") {
  const auto reg = backend({"aten::neg", "aten::fill_.Scalar", "aten::sum.IntList_out"});
  check_raises(neg_backward(*reg, BackwardForm::Sum), "aten::as_strided", BackwardPhase::SumNode);
  check_returns(neg_backward(*reg, BackwardForm::Seed));
}

TEST_CASE("trace --backward: with every kernel both forms return (assumed), and has-kernel says yes, assumed") {
  const auto reg = backend({"aten::neg", "aten::fill_.Scalar", "aten::sum.IntList_out", "aten::as_strided"});
  check_returns(neg_backward(*reg, BackwardForm::Sum));
  check_returns(neg_backward(*reg, BackwardForm::Seed));
  const auto answer = neg_has_kernel(*reg);
  REQUIRE(answer);
  CHECK(answer->answer == HasKernelAnswer::Yes);
  CHECK(answer->assumed);
}

TEST_CASE("trace --backward: a call only some inputs make is no raise, but makes a later raise's text uncertain") {
  // A recording that says neg's node calls zero_ on some inputs, then mul.Tensor on every one:
  // the backend has neither zero_ nor mul.out, so mul.Tensor raises for sure, and zero_ may raise first.
  const std::string recorded = R"(, "composite_calls": {"format": "dispatchctl-composite-calls", "version": 1,
    "release": "2.14.1", "backward": [{"op": "aten::neg", "samples": 4, "calls": [
      {"op": "aten::zero_", "when": "some_inputs"}, {"op": "aten::mul.Tensor", "when": "always"}]}]})";
  const auto reg = backend({"aten::neg", "aten::fill_.Scalar", "aten::sum.IntList_out", "aten::as_strided",
                            "aten::expand"}, recorded);
  const BackwardTrace b = neg_backward(*reg, BackwardForm::Seed);
  check_raises(b, "aten::mul.out", BackwardPhase::Node);
  CHECK(b.verdict.error_caveat.find("aten::zero_") != std::string::npos);
  // Only the some_inputs call raising: no certain raise, an assumed return that names it.
  const std::string only_some = R"(, "composite_calls": {"format": "dispatchctl-composite-calls", "version": 1,
    "release": "2.14.1", "backward": [{"op": "aten::neg", "samples": 4, "calls": [
      {"op": "aten::zero_", "when": "some_inputs"}]}]})";
  const auto reg2 = backend({"aten::neg", "aten::fill_.Scalar", "aten::sum.IntList_out", "aten::as_strided"},
                            only_some);
  const BackwardTrace b2 = neg_backward(*reg2, BackwardForm::Seed);
  check_returns(b2);
  bool named = false;
  for (const std::string& a : b2.verdict.assumptions) named = named || a.find("aten::zero_") != std::string::npos;
  CHECK(named);
}

TEST_CASE("trace --backward: no backward runs after a forward that raises") {
  const auto reg = backend({"aten::fill_.Scalar"});  // no neg: the forward raises at neg.out
  const BackwardTrace b = neg_backward(*reg, BackwardForm::Sum);
  CHECK(b.start == BackwardTrace::Start::ForwardRaises);
  CHECK(b.steps.empty());
}

namespace {

BackwardTrace backward_of(const Registry& reg, const std::string& name, BackwardForm form) {
  const Operator& op = *reg.find(name);
  CallOptions options;
  options.tensors = {"privateuse1:leaf"};
  const CallSetup setup = make_call_setup(reg.catalogue(), options);
  return trace_backward(reg, op, setup, trace_call(reg, op, setup), form);
}

// A recording (docs/composite-calls.md) whose only node is `op`'s, calling mul.Tensor on every input.
std::string node_calling_mul(const std::string& op, const std::string& file_fields, const std::string& entry_fields) {
  return R"(, "composite_calls": {"format": "dispatchctl-composite-calls", "version": 1, "release": "2.14.1")" +
         file_fields + R"(, "backward": [{"op": ")" + op + R"(", "samples": 4)" + entry_fields +
         R"(, "calls": [{"op": "aten::mul.Tensor", "when": "always"}]}]})";
}

}  // namespace

TEST_CASE("trace --backward: a multi-output node's calls are certain only when it was given the first output's "
          "gradient alone") {
  // max.dim returns (values, indices); the backend has max.dim itself but not mul.out.
  const std::vector<std::string> ops = {"aten::max.dim", "aten::fill_.Scalar", "aten::sum.IntList_out",
                                        "aten::as_strided"};
  const auto engine_like =
      backend(ops, node_calling_mul("aten::max.dim", R"(, "backward_gradients": "first_output_expanded")", ""));
  const BackwardTrace raised = backward_of(*engine_like, "aten::max.dim", BackwardForm::Sum);
  check_raises(raised, "aten::mul.out", BackwardPhase::Node);
  // The gradient was the expanded one out.sum() hands on: no caveat for it.
  CHECK(raised.verdict.error_caveat.find("expanded view") == std::string::npos);
  // Recorded the first way (ones for every output, contiguous): no call of the node is certain.
  const auto every_output = backend(ops, node_calling_mul("aten::max.dim", "", ""));
  const BackwardTrace assumed = backward_of(*every_output, "aten::max.dim", BackwardForm::Sum);
  check_returns(assumed);
  CHECK_FALSE(assumed.steps.back().step.calls_certain);
}

TEST_CASE("trace --backward: a node the recording marks mode_dependent has no certain call") {
  const std::vector<std::string> ops = {"aten::neg", "aten::fill_.Scalar", "aten::sum.IntList_out", "aten::as_strided"};
  const std::string first_output = R"(, "backward_gradients": "first_output_expanded")";
  check_raises(neg_backward(*backend(ops, node_calling_mul("aten::neg", first_output, "")), BackwardForm::Seed),
               "aten::mul.out", BackwardPhase::Node);
  const auto marked = backend(ops, node_calling_mul("aten::neg", first_output, R"(, "mode_dependent": true)"));
  const BackwardTrace b = neg_backward(*marked, BackwardForm::Seed);
  check_returns(b);
  CHECK(b.steps.back().step.uncertain.find("subclass-like") != std::string::npos);
}
