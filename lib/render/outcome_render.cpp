#include "render/outcome_render.h"

#include <cmath>

namespace dispatchctl {

nlohmann::ordered_json outcome_counts_json(const OutcomeCounts& counts) {
  nlohmann::ordered_json out = nlohmann::ordered_json::object();
  for (Outcome o : k_all_outcomes) out[std::string(outcome_id(o))] = counts[static_cast<int>(o)];
  return out;
}

double working_percent(const OutcomeCounts& counts, std::size_t total) {
  if (total == 0) return 0.0;
  return std::round(1000.0 * static_cast<double>(working_count(counts)) / static_cast<double>(total)) / 10.0;
}

}  // namespace dispatchctl
