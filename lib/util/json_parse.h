#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace dispatchctl {

// Parses JSON, turning syntax errors into "FILE:LINE:COL: invalid JSON: …".
// Duplicate object keys are rejected too (JSON allows them, we do not:
// the second would silently win).
nlohmann::ordered_json parse_json_or_throw(std::string_view text, const std::string& source);
// 1-based line and column of a byte offset.
std::pair<int, int> line_and_column(std::string_view text, size_t offset);

}  // namespace dispatchctl
