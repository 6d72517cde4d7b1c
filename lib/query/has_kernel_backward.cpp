#include "query/has_kernel_backward.h"


namespace dispatchctl {

namespace {

// Its backward was recorded, or its graph is its callees' nodes (it decomposes at the autograd key).
bool differentiable(const Registry& registry, const Operator& op, Key autograd) {
  if (registry.backward_calls(op.name)) return true;
  const Rule rule = live_row(registry, op, autograd).rule;
  return rule == Rule::CompositeImplicitAutograd || rule == Rule::CompositeImplicitAutogradNestedTensor;
}

BackwardCallVerdict row_verdict(const Registry& registry, OutcomeFollower& follower, const Operator* callee, Key at) {
  BackwardCallVerdict v;
  if (!callee) {
    v.why = "not in the registry";
    return v;
  }
  const Row row = live_row(registry, *callee, at);
  const RowOutcome followed = follower.classify(*callee, row);
  switch (outcome_verdict(followed.outcome)) {
    case RowVerdict::Works:
    case RowVerdict::ForwardOnly:  // the engine calls it with grad mode off: its forward runs
      v.kind = BackwardCallVerdict::Kind::Returns;
      v.assumed = followed.assumed || followed.outcome == Outcome::CompositeUnknown;
      break;
    case RowVerdict::Unknown:
      v.why = "a python kernel";
      break;
    case RowVerdict::Fails: {
      const OutcomeFollower::Raising at_row = follower.where_raises(*callee, row, followed);
      v.kind = BackwardCallVerdict::Kind::Raises;
      v.raises_at = at_row.op ? std::string(at_row.op->name) : std::string(callee->name);
      OutcomeFollower::RaisedError error = OutcomeFollower::raised_error(registry.catalogue(), at_row);
      v.error_type = std::move(error.type);
      v.error = std::move(error.first_line);
      if (v.error.empty()) {
        v.error_type = "an error";
        v.error = "the " + registry.catalogue().name(at_row.row.key) + " row of " + v.raises_at + " raises";
      }
      break;
    }
  }
  return v;
}

}  // namespace

std::optional<HasKernelBackward> answer_has_kernel_backward(const Registry& registry, const Operator& op, Key k,
                                                            const HasKernelResult& forward) {
  const Catalogue& cat = registry.catalogue();
  const int backend = k == k_undefined || cat.is_alias(k) ? 0 : cat.highest_backend(cat.bit(k));
  if (backend == 0) return std::nullopt;
  const Key autograd = cat.autograd_key_from_backend(backend);
  if (k != cat.runtime_key(cat.well_known().dense, backend) && k != autograd) return std::nullopt;
  if (!differentiable(registry, op, autograd)) return std::nullopt;
  const std::optional<BackwardPlan> sum = backward_plan(registry, op, BackwardForm::Sum);
  if (!sum) return std::nullopt;
  HasKernelBackward b;
  if (forward.answer == HasKernelAnswer::No) {
    b.text = "the forward raises first: no backward runs";
    return b;
  }
  OutcomeFollower follower(registry, live_row_of(registry));
  auto evaluate = [&](std::size_t, std::size_t, const BackwardCall& call) {
    return row_verdict(registry, follower, registry.find(call.op), autograd);
  };
  const BackwardVerdict verdict = conclude_backward(*sum, evaluate);
  // An unknown forward (a python kernel): the backward's answer is for when it returns.
  const std::string where = " after a call that reaches " + cat.name(k) +
                            (forward.answer == HasKernelAnswer::Unknown ? " (if that call returns)" : "");
  if (verdict.outcome == BackwardVerdict::End::Completed) {
    b.answer = HasKernelAnswer::Yes;
    b.text = "out.sum().backward()" + where + " returns, assumed: every call it makes at " + cat.name(autograd) +
             " works as recorded, but " + verdict.assumptions.back();
    return b;
  }
  b.answer = HasKernelAnswer::No;
  b.raises_at = registry.find(verdict.raises_at);
  b.error_type = verdict.error_type;
  b.error = verdict.error;
  b.error_caveat = verdict.error_caveat;
  b.assumed = false;
  b.text = "out.sum().backward()" + where + " raises at " + verdict.raises_at + ": " + verdict.error;
  if (verdict.raises_in_sum_steps) {
    // out.backward() on a 0-dim output runs neither out.sum() nor SumBackward0.
    const BackwardVerdict seed = conclude_backward(*backward_plan(registry, op, BackwardForm::Seed), evaluate);
    b.assumed = seed.outcome != BackwardVerdict::End::Raised;
    b.text += b.assumed ? " (assumed: an output that is not 0-dim; out.backward() on a 0-dim one skips out.sum())"
                        : "; out.backward() on a 0-dim output raises too, at " + seed.raises_at;
  }
  if (!b.error_caveat.empty()) b.text += " (certain; this text unless " + b.error_caveat + ")";
  return b;
}

}  // namespace dispatchctl
