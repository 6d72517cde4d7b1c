// The short view of a coverage report a backend puts in its README or CI
// summary (`report --format markdown`, the SVG badge): per key the operators
// that work, fail, work forward only or are unknown (the page's totals, the
// same numbers), the focus key's failing operators, and what to implement
// first: the operators whose kernel would fix the most failing rows.
#pragma once

#include <cstddef>
#include <vector>

#include "report/coverage.h"

namespace dispatchctl {

struct KeySummary {
  Key key = k_undefined;
  std::size_t operators = 0, works = 0, forward_only = 0, unknown = 0, fails = 0;
};

// One operator to implement at the focus key, and the failing rows in scope a
// kernel for it fixes (its own, and the composites whose calls end at it).
struct ImplementFirst {
  const Operator* op = nullptr;
  bool in_scope = false;  // one of the report's operators (else a callee outside the set)
  std::vector<const Operator*> fixes;
};

struct CoverageSummary {
  std::vector<KeySummary> keys;       // the report's columns, in order
  Key focus = k_undefined;            // the first backend column (not an autograd one), else the first
  std::vector<const Operator*> failing;  // at focus, sorted by name
  std::vector<ImplementFirst> implement_first;  // most rows fixed first, then by name
};

CoverageSummary summarize_coverage(const CoverageReport& report);

}  // namespace dispatchctl
