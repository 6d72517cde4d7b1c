// Renderers for `explain --key K` without an operator.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "explain/key_report.h"

namespace dispatchctl {

struct KeyReportOptions {
  std::vector<std::string> list;  // group ids whose operators are listed (text)
  std::size_t limit = 0;          // cap on listed operators per group; 0 = all
  std::size_t examples = 3;       // operators named per group in the breakdown
  int width = 80;
};

void append_key_report_text(std::string& out, const Registry& registry, const KeyReport& report,
                            const KeyReportOptions& options);
// Every group with its operators (capped by `limit`).
nlohmann::ordered_json key_report_json(const Registry& registry, const KeyReport& report,
                                       const KeyReportOptions& options);

}  // namespace dispatchctl
