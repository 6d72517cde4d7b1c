// What `out.sum().backward()` (or `out.backward()` on a 0-dim out) calls on
// the backend after the forward, in order, from the release's recording
// (docs/composite-calls.md: `backward[]`, `backward_seed`), and how the
// outcomes of those calls make the backward's verdict. One plan and one
// conclusion for trace (each call a nested trace) and has-kernel --works
// (each call a followed row): the callers only say what one call does.
//
// The order is PyTorch's (torch/autograd/__init__.py backward, _make_grads;
// torch/csrc/autograd/engine.cpp): the forward ran with inputs that require
// grad; then `out.sum()` (a forward call); then Python's `_make_grads` refuses
// a complex output and makes the seed (ones_like); then the engine runs
// SumBackward0 and the operator's node, their calls with grad mode off, and
// AccumulateGrad on the leaves. What the recording has no data for is said,
// never guessed: an operator without a node of its own (a
// CompositeImplicitAutograd one: its graph is its callees' nodes), the
// engine's AccumulateGrad and the gradient layout checks (not recorded), and
// where the recording says it saw a node otherwise than the engine runs it
// (BackwardNodeFlag: every output's gradient, a contiguous one, a formula
// the recording's TorchDispatchMode sent another way).
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "registry/registry.h"

namespace dispatchctl {

enum class BackwardForm : std::uint8_t { Sum, Seed };  // out.sum().backward() / out.backward()
// What `out.sum()` calls: a command that loads only the operators it names loads it too.
inline constexpr std::string_view k_backward_sum_operator = "aten::sum";
std::string_view backward_form_id(BackwardForm form);   // "sum", "seed"

enum class BackwardPhase : std::uint8_t { SumForward, Seed, SumNode, Node };
std::string_view backward_phase_id(BackwardPhase phase);  // "sum", "seed", "sum_node", "node"

struct BackwardCall {
  std::string op;  // "aten::expand"
  CallWhen when = CallWhen::Always;
};

struct BackwardStep {
  BackwardPhase phase = BackwardPhase::Node;
  std::string what;                 // one sentence: what runs
  std::vector<BackwardCall> calls;  // what it calls on the backend, in order (SumForward: aten::sum)
  bool recorded = true;             // false: what it calls was not recorded (unknown)
  // false: none of the calls is certain, for `uncertain` (the recording saw
  // them with a gradient for every output, the engine gives only the first
  // output's; a formula whose path the recording's mode changed).
  bool calls_certain = true;
  std::string uncertain;
  // The recording gave the node a contiguous gradient where after out.sum()
  // the engine gives an expanded one (a raise after it: error_caveat).
  bool contiguous_gradient = false;
};

struct BackwardPlan {
  BackwardForm form = BackwardForm::Sum;
  std::vector<BackwardStep> steps;
  // The forward with inputs that require grad runs the autograd kernel's
  // checks (an argument the operator is not differentiable for): "" when the
  // operator has one tensor argument only.
  std::string forward_caveat;
};

// nullopt: the recording has no backward data at all (no seed recorded).
std::optional<BackwardPlan> backward_plan(const Registry& registry, const Operator& op, BackwardForm form);

// What one call of a step does, as the caller worked it out.
struct BackwardCallVerdict {
  enum class Kind : std::uint8_t { Returns, Raises, Unknown } kind = Kind::Unknown;
  bool assumed = false;         // Returns: if the kernel's own code does
  std::string error_type, error, raises_at, caveat;  // Raises
  std::string why;              // Unknown: why not known
};
// `step` and `call` index the plan; the caller evaluates (and may keep) each call.
using EvaluateBackwardCall =
    std::function<BackwardCallVerdict(std::size_t step, std::size_t call, const BackwardCall& recorded)>;

struct BackwardVerdict {
  enum class End : std::uint8_t { Completed, Raised } outcome = End::Completed;
  // Completed: only assumed (AccumulateGrad and the engine's checks are never
  // recorded); Raised: always certain (a call every input makes raises).
  bool assumed = true;
  std::string error_type, error, raises_at, error_caveat;
  std::size_t raises_step = 0, raises_call = 0;
  // Raised only in the `sum` form's own steps: out.backward() on a 0-dim out never runs them.
  bool raises_in_sum_steps = false;
  std::vector<std::string> assumptions;  // why completion is assumed, one each
};

// Walks the plan in order: the first call that every input makes and that
// certainly raises is the backward's raise; calls only some inputs make, calls
// of unknown outcome and unrecorded nodes before it make its text uncertain
// (error_caveat), never its verdict. Every call is evaluated (some_inputs
// ones too, to say whether they could raise first).
BackwardVerdict conclude_backward(const BackwardPlan& plan, const EvaluateBackwardCall& evaluate);

}  // namespace dispatchctl
