// `report --format markdown` (a one-screen summary for a README or a CI job
// summary) and `--format svg` / `--badge FILE` (a small badge), both from
// report/summary.h: the numbers are the page's.
#pragma once

#include <string>

#include "report/summary.h"

namespace dispatchctl {

// `list_limit`: how many failing operators and how many to implement first are named.
std::string coverage_markdown(const CoverageReport& report, const CoverageSummary& summary,
                              std::size_t list_limit = 20);
// A badge "PrivateUse1 core | 62/193 (32%)" for the focus key, coloured by the
// working share; plain SVG 1.1 that renders alone or in an <img>.
std::string coverage_badge_svg(const CoverageReport& report, const CoverageSummary& summary);

}  // namespace dispatchctl
