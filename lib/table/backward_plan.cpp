#include "table/backward_plan.h"

#include "registry/schema_parser.h"

namespace dispatchctl {

std::string_view backward_form_id(BackwardForm form) { return form == BackwardForm::Sum ? "sum" : "seed"; }

std::string_view backward_phase_id(BackwardPhase phase) {
  switch (phase) {
    case BackwardPhase::SumForward: return "sum";
    case BackwardPhase::Seed: return "seed";
    case BackwardPhase::SumNode: return "sum_node";
    case BackwardPhase::Node: return "node";
  }
  return "node";
}

namespace {

// A step in a sentence about one of its calls.
std::string step_name(const BackwardStep& step) {
  switch (step.phase) {
    case BackwardPhase::SumForward: return "out.sum()";
    case BackwardPhase::Seed: return "the gradient seed";
    case BackwardPhase::SumNode: return "SumBackward0";
    case BackwardPhase::Node: return "the operator's node";
  }
  return "";
}

std::vector<BackwardCall> calls_of(const std::vector<RecordedCall>& recorded) {
  std::vector<BackwardCall> out;
  for (const RecordedCall& c : recorded) out.push_back({std::string(c.op), c.when});
  return out;
}

// The node of `op`, as the recording saw it when the forward made one of its own.
BackwardStep node_step(const Registry& registry, std::string_view op, BackwardPhase phase, std::string what,
                       std::size_t outputs) {
  BackwardStep step;
  step.phase = phase;
  step.what = std::move(what);
  if (const std::vector<RecordedCall>* recorded = registry.backward_calls(op)) {
    step.calls = calls_of(*recorded);
  } else {
    step.recorded = false;
  }
  // How the recording saw the node (release data: backward_gradients, mode_dependent).
  const std::uint8_t flags = registry.backward_flags(op);
  step.contiguous_gradient = flags & k_backward_contiguous_gradient;
  if (outputs > 1 && (flags & k_backward_every_output_gradient)) {
    step.calls_certain = false;
    step.uncertain = "a multi-output operator: the recording gave its node every output's gradient, the engine "
                     "gives only the first output's";
  }
  if (flags & k_backward_mode_dependent) {
    step.calls_certain = false;
    step.uncertain = "its formula tests whether a tensor is subclass-like, which the recording's "
                     "TorchDispatchMode made true: the engine's call takes another path";
  }
  return step;
}

// The operator whose node is the output's grad_fn: `op` when its backward
// was recorded; for a CompositeImplicitAutograd operator without one (its
// graph is its callees' nodes), the one callee its recorded kernel always
// makes that returns a tensor, when it makes no other such call (checks such
// as _linalg_check_errors return nothing), followed down. nullptr: not known.
const Operator* node_owner(const Registry& registry, const Operator& op, std::string& via, int depth = 0) {
  if (registry.backward_calls(op.name)) return &op;
  const std::optional<Key> cia = registry.catalogue().alias(Alias::CompositeImplicitAutograd);
  const Kernel* kernel = cia ? op.active(*cia) : nullptr;
  const CompositeCalls* calls = kernel && depth < 4 ? registry.composite_calls(*kernel) : nullptr;
  if (!calls || calls->raises) return nullptr;
  const Operator* only = nullptr;
  for (const RecordedCall& c : calls->calls) {
    const Operator* callee = registry.find(c.op);
    const std::optional<FunctionSchema> schema = callee ? operator_schema(*callee) : std::nullopt;
    if (!schema) return nullptr;
    if (schema->returns.empty()) continue;
    if (c.when != CallWhen::Always || only) return nullptr;
    only = callee;
  }
  if (!only) return nullptr;
  via += std::string(via.empty() ? "" : ", ") + std::string(op.name) + " decomposes to " + std::string(only->name);
  return node_owner(registry, *only, via, depth + 1);
}

}  // namespace

std::optional<BackwardPlan> backward_plan(const Registry& registry, const Operator& op, BackwardForm form) {
  if (registry.backward_seed().empty()) return std::nullopt;
  BackwardPlan plan;
  plan.form = form;
  std::size_t tensor_arguments = 0, outputs = 1;
  if (const std::optional<FunctionSchema> schema = operator_schema(op)) {
    for (const SchemaArgument& a : schema->arguments) tensor_arguments += a.type.tensor_like() && !a.is_write();
    outputs = schema->returns.size();
  }
  if (tensor_arguments > 1)
    plan.forward_caveat = "an argument that requires grad is one " + std::string(op.name) +
                          " is not differentiable for, and its autograd kernel raises first (\"The function … is "
                          "not differentiable with respect to argument …\")";
  if (form == BackwardForm::Sum) {
    plan.steps.push_back({BackwardPhase::SumForward,
                          "out.sum(): aten::sum on the output (a tensor that requires grad), a forward call",
                          {{std::string(k_backward_sum_operator), CallWhen::Always}},
                          true,
                          true,
                          "",
                          false});
  }
  BackwardStep seed;
  seed.phase = BackwardPhase::Seed;
  seed.what = std::string("the gradient seed: torch.autograd's _make_grads makes ones like the ") +
              (form == BackwardForm::Sum ? "sum" : "output") + " (release data: backward_seed)";
  seed.calls = calls_of(registry.backward_seed());
  plan.steps.push_back(std::move(seed));
  if (form == BackwardForm::Sum)
    plan.steps.push_back(node_step(registry, k_backward_sum_operator, BackwardPhase::SumNode,
                                   "SumBackward0, the node of aten::sum (the engine runs the root first, grad mode off)",
                                   1));
  std::string via;
  const Operator* owner = node_owner(registry, op, via);
  if (owner && owner != &op)
    if (const std::optional<FunctionSchema> schema = operator_schema(*owner)) outputs = schema->returns.size();
  BackwardStep node =
      node_step(registry, owner ? std::string_view(owner->name) : std::string_view(op.name), BackwardPhase::Node,
                "the node of " + std::string(owner ? owner->name : op.name) + " (its autograd formula, grad mode off" +
                    (via.empty() ? "" : "; " + via + " as recorded") + ")",
                outputs);
  if (!node.recorded)
    node.what = "the nodes the forward of " + std::string(op.name) +
                " made (not recorded: an operator without an autograd kernel of its own, a "
                "CompositeImplicitAutograd one, has its callees' nodes)";
  plan.steps.push_back(std::move(node));
  return plan;
}

BackwardVerdict conclude_backward(const BackwardPlan& plan, const EvaluateBackwardCall& evaluate) {
  BackwardVerdict verdict;
  // Code that may raise before a later call does, in the order it runs: the
  // raise's caveat names them all.
  std::vector<std::string> before;
  if (!plan.forward_caveat.empty()) before.push_back(plan.forward_caveat);
  for (std::size_t i = 0; i < plan.steps.size(); ++i) {
    const BackwardStep& step = plan.steps[i];
    if (step.phase == BackwardPhase::Seed)
      before.push_back("the output is complex: Python's _make_grads raises \"grad can be implicitly created only for "
                       "real scalar outputs but got torch.complex64\" before the seed");
    if (step.phase == BackwardPhase::Node && plan.form == BackwardForm::Sum && step.contiguous_gradient)
      before.push_back("the gradient SumBackward0 passes on is an expanded view (the recording gave the node a "
                       "contiguous one): a formula whose path depends on strides calls other operators first");
    if (!step.recorded) {
      verdict.assumptions.push_back(step.what);
      before.push_back(step.what + " raises first");
      continue;
    }
    for (std::size_t j = 0; j < step.calls.size(); ++j) {
      const BackwardCall& call = step.calls[j];
      const BackwardCallVerdict v = evaluate(i, j, call);
      const bool certain = call.when == CallWhen::Always && step.calls_certain;
      if (v.kind == BackwardCallVerdict::Kind::Raises && certain) {
        verdict.outcome = BackwardVerdict::End::Raised;
        verdict.assumed = false;
        verdict.error_type = v.error_type;
        verdict.error = v.error;
        verdict.raises_at = v.raises_at;
        verdict.raises_step = i;
        verdict.raises_call = j;
        verdict.raises_in_sum_steps = step.phase == BackwardPhase::SumForward || step.phase == BackwardPhase::SumNode;
        if (!v.caveat.empty()) before.push_back(v.caveat);
        // Every one, in the order it runs: each may be the one that raises first.
        for (const std::string& c : before) verdict.error_caveat += (verdict.error_caveat.empty() ? "" : "; or ") + c;
        verdict.assumptions.clear();
        return verdict;
      }
      const std::string where = call.op + " (" + step_name(step) + ")";
      if (v.kind == BackwardCallVerdict::Kind::Raises) {
        before.push_back(where + ", which " +
                         (step.calls_certain ? std::string("only some inputs make") : "the engine may not make") +
                         ", raises " + v.error.substr(0, v.error.find('\n')));
        verdict.assumptions.push_back(where + " is not called (" +
                                      (step.calls_certain ? "only some inputs call it" : step.uncertain) + ")");
      } else if (v.kind == BackwardCallVerdict::Kind::Unknown) {
        before.push_back(where + " raises first (" + v.why + ")");
        if (certain) verdict.assumptions.push_back(where + " returns (" + v.why + ")");
      } else if (v.assumed && certain) {
        verdict.assumptions.push_back(where + " returns if its kernel does");
      }
    }
  }
  verdict.assumptions.push_back(
      "AccumulateGrad stores the leaves' gradients and the engine checks each gradient's shape, dtype and layout "
      "(torch/csrc/autograd/engine.cpp validate_outputs, accumulate_grad.h): what they call is not recorded");
  return verdict;
}

}  // namespace dispatchctl
