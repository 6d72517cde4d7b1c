// The short view of a coverage report a backend puts in its README or CI
// summary (`report --format markdown`, the SVG badge): per key the operators
// that work, fail, work forward only or are unknown (the page's totals, the
// same numbers), the focus key's failing operators, and what to implement
// first: the report's needs at the focus key (table/needs.h), forward and
// backward, the operators whose kernel would unblock the most rows first.
#pragma once

#include <cstddef>
#include <vector>

#include "report/coverage.h"

namespace dispatchctl {

struct KeySummary {
  Key key = k_undefined;
  std::size_t operators = 0, works = 0, forward_only = 0, unknown = 0, fails = 0;
};

struct CoverageSummary {
  std::vector<KeySummary> keys;       // the report's columns, in order
  Key focus = k_undefined;            // the report's focus (coverage.h): its first backend column, else the first
  std::vector<const Operator*> failing;  // at focus, sorted by name
  const KeyNeeds* implement = nullptr;  // the report's needs at focus; null when focus has none
};

CoverageSummary summarize_coverage(const CoverageReport& report);

}  // namespace dispatchctl
