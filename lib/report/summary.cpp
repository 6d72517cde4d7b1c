#include "report/summary.h"

#include <algorithm>
#include <map>

namespace dispatchctl {

namespace {

// The operator whose missing kernel makes a failing row fail: the row's own,
// or, down a generated composite's calls (table/outcome.h classify_followed),
// the first callee that does not itself call on.
const Operator* cause_of(const Registry& registry, const Operator& op, Outcome outcome, const Dependency& needs,
                         Key key) {
  if (outcome != Outcome::CompositeFails || !needs.op) return &op;
  const RowOf row_of = [&](const Operator& o, Key k) { return compute_row(registry, o, k); };
  const Operator* cause = needs.op;
  Dependency next = needs;
  for (int depth = 0; depth < 16 && next.outcome == Outcome::CompositeFails; ++depth) {
    RowOutcome deeper = classify_followed(registry, *next.op, compute_row(registry, *next.op, key), row_of);
    if (!deeper.needs.op || deeper.needs.op == cause) break;
    cause = deeper.needs.op;
    next = deeper.needs;
  }
  return cause;
}

}  // namespace

CoverageSummary summarize_coverage(const CoverageReport& report) {
  const Catalogue& cat = report.registry->catalogue();
  CoverageSummary summary;
  std::size_t focus_column = 0;
  bool found = false;
  for (std::size_t j = 0; j < report.keys.size(); ++j) {
    const Key k = report.keys[j];
    KeySummary s;
    s.key = k;
    s.operators = report.operators.size();
    for (Outcome o : k_all_outcomes) {
      const std::size_t n = report.totals[j].by_outcome[static_cast<int>(o)];
      switch (outcome_verdict(o)) {
        case RowVerdict::Works: s.works += n; break;
        case RowVerdict::ForwardOnly: s.forward_only += n; break;
        case RowVerdict::Unknown: s.unknown += n; break;
        case RowVerdict::Fails: s.fails += n; break;
      }
    }
    summary.keys.push_back(s);
    if (!found && cat.is_backend_dispatch_key(k)) {
      focus_column = j;
      found = true;
    }
  }
  if (report.keys.empty()) return summary;
  summary.focus = report.keys[focus_column];
  std::map<const Operator*, ImplementFirst> causes;
  for (std::size_t i = 0; i < report.operators.size(); ++i) {
    const Outcome outcome = report.outcome(i, focus_column);
    if (outcome_verdict(outcome) != RowVerdict::Fails) continue;
    const Operator& op = *report.operators[i];
    summary.failing.push_back(&op);
    const Operator* cause = cause_of(*report.registry, op, outcome, report.dependency(i, focus_column), summary.focus);
    ImplementFirst& entry = causes[cause];
    entry.op = cause;
    entry.fixes.push_back(&op);
  }
  for (auto& [op, entry] : causes) {
    entry.in_scope = std::binary_search(report.operators.begin(), report.operators.end(), op,
                                        [](const Operator* a, const Operator* b) { return a->name < b->name; });
    summary.implement_first.push_back(std::move(entry));
  }
  std::stable_sort(summary.implement_first.begin(), summary.implement_first.end(),
                   [](const ImplementFirst& a, const ImplementFirst& b) {
                     if (a.fixes.size() != b.fixes.size()) return a.fixes.size() > b.fixes.size();
                     return a.op->name < b.op->name;
                   });
  return summary;
}

}  // namespace dispatchctl
