// The outcome counts every command prints the same way: `outcomes` in the
// JSON of report, explain --key and query ({id: count}, every outcome, in
// the legend's order), and the one percentage, "working".
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "table/outcome.h"

namespace dispatchctl {

nlohmann::ordered_json outcome_counts_json(const OutcomeCounts& counts);
// 100 * working / total with one decimal (0 for an empty total).
double working_percent(const OutcomeCounts& counts, std::size_t total);

}  // namespace dispatchctl
