// A callee that works forward only (autograd not implemented) leaves its
// composite forward only, never failing (issue 32 item 6): the composite's
// forward runs, its backward is what a call cannot do. And one follower
// shared by many rows answers as a follower per row does.
#include <doctest/doctest.h>

#include "table/outcome.h"
#include "test_support.h"

using namespace dispatchctl;

namespace {

// my::f: a CompositeImplicitAutograd kernel recorded calling my::g on every
// call; my::g: a PrivateUse1 kernel and torchgen's boxed-only
// autograd-not-implemented kernel at Autograd (VariableType, no signature).
const char* const k_manifest = R"J({"dispatchctl_manifest": 1, "torch_version": "2.14.1", "operators": [
  {"name": "my::g", "schema": "my::g(Tensor self) -> Tensor",
   "kernels": [{"key": "PrivateUse1", "kernel": "registered at backend.cpp:1"},
               {"key": "Autograd", "kernel": "registered at /src/torch/csrc/autograd/generated/VariableType_0.cpp:9",
                "boxed": true, "unboxed": false}]},
  {"name": "my::f", "schema": "my::f(Tensor self) -> Tensor",
   "kernels": [{"key": "CompositeImplicitAutograd", "kernel": "registered at f.cpp:1"}]}],
 "composite_calls": {"format": "dispatchctl-composite-calls", "version": 1, "release": "2.14.1",
   "kernels": [{"op": "my::f", "key": "CompositeImplicitAutograd", "samples": 2,
                "calls": [{"op": "my::g", "when": "always"}]}]}})J";

}  // namespace

TEST_CASE("outcome: a forward-only callee makes its composite forward only, not failing") {
  auto reg = test::registry_from_json(k_manifest);
  const Catalogue& cat = reg->catalogue();
  const Operator& f = *reg->find("my::f");
  const Operator& g = *reg->find("my::g");
  const Key autograd = *cat.find("AutogradPrivateUse1");
  OutcomeFollower follower(*reg, computed_row_of(*reg));
  const RowOutcome callee = follower.classify(g, compute_row(*reg, g, autograd));
  REQUIRE(callee.outcome == Outcome::AutogradNotImplemented);
  const RowOutcome composite = follower.classify(f, compute_row(*reg, f, autograd));
  CHECK(composite.kernel == Outcome::Composite);
  CHECK(composite.outcome == Outcome::AutogradNotImplemented);
  CHECK(outcome_verdict(composite.outcome) == RowVerdict::ForwardOnly);
  REQUIRE(composite.needs.op == &g);
  CHECK(composite.needs.via == DependencyVia::RecordedCall);
  // The same answers from a follower of its own (nothing remembered).
  CHECK(classify_followed(*reg, f, compute_row(*reg, f, autograd), computed_row_of(*reg)).outcome ==
        Outcome::AutogradNotImplemented);
  // At PrivateUse1 both work.
  const Key pu1 = *cat.find("PrivateUse1");
  CHECK(follower.classify(f, compute_row(*reg, f, pu1)).outcome == Outcome::Composite);
}
