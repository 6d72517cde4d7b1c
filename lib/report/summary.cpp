#include "report/summary.h"

namespace dispatchctl {

CoverageSummary summarize_coverage(const CoverageReport& report) {
  CoverageSummary summary;
  std::size_t focus_column = 0;  // the report's focus (coverage.h)
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
    if (k == report.focus) focus_column = j;
  }
  if (report.keys.empty()) return summary;
  summary.focus = report.keys[focus_column];
  for (std::size_t i = 0; i < report.operators.size(); ++i)
    if (outcome_verdict(report.outcome(i, focus_column)) == RowVerdict::Fails)
      summary.failing.push_back(report.operators[i]);
  for (const KeyNeeds& needs : report.implement)
    if (needs.key == summary.focus) summary.implement = &needs;
  return summary;
}

}  // namespace dispatchctl
