#include "query/has_kernel.h"


namespace dispatchctl {

HasKernelResult answer_has_kernel(const Registry& registry, const Operator& op, Key k, HasKernelQuestion question,
                                  const BuildBackends& build) {
  const Catalogue& cat = registry.catalogue();
  HasKernelResult r;
  r.question = question;
  r.op = &op;
  r.key = k;
  if (question == HasKernelQuestion::Registered) {
    r.answer = has_kernel_for_dispatch_key(op, k) ? HasKernelAnswer::Yes : HasKernelAnswer::No;
    r.registered = op.active(k);
  } else {
    r.row_key = computed_row_key(cat, k);  // alias key: PyTorch's error
    r.row = live_row(registry, op, r.row_key);
    OutcomeFollower follower(registry, live_row_of(registry));
    RowOutcome followed = follower.classify(op, r.row);
    r.outcome = followed.outcome;
    r.needs = followed.needs;
    r.assumed = followed.assumed;
    // Down the chain of failing callees to the row that raises.
    if (r.outcome == Outcome::CompositeFails || r.outcome == Outcome::Raises) {
      const OutcomeFollower::Raising at = follower.where_raises(op, r.row, followed);
      r.raises_at = at.op;
      r.raises_at_key = at.row.key;
      OutcomeFollower::RaisedError error = OutcomeFollower::raised_error(cat, at);
      r.error_type = std::move(error.type);
      r.error = std::move(error.first_line);
    }
    r.verdict = outcome_verdict(r.outcome);
    if (question == HasKernelQuestion::Computed)
      r.answer = r.row.valid() ? HasKernelAnswer::Yes : HasKernelAnswer::No;
    else
      r.answer = r.verdict == RowVerdict::Works     ? HasKernelAnswer::Yes
                 : r.verdict == RowVerdict::Unknown ? HasKernelAnswer::Unknown
                                                    : HasKernelAnswer::No;
  }
  r.build_note = not_compiled_note(cat, build, k);
  return r;
}

}  // namespace dispatchctl
