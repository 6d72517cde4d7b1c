// `query`'s answer: the operators found, as names, a count or JSON
// (schemas/query.schema.json).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "table/outcome.h"

namespace dispatchctl {

// `unknown_python_kernels`: with --works, how many Python kernels were left out.
// `outcomes`: the --key rows by outcome (query_outcome_counts), with `key`.
struct QueryOutcomes {
  Key key = k_undefined;
  OutcomeCounts counts{};
};
std::string query_json_text(const Registry& registry, const std::vector<const Operator*>& found,
                            std::optional<size_t> unknown_python_kernels,
                            const std::optional<QueryOutcomes>& outcomes = std::nullopt);
std::string query_names_text(const std::vector<const Operator*>& found);

}  // namespace dispatchctl
