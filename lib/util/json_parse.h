#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "util/errors.h"

namespace dispatchctl {

// Parses JSON, turning syntax errors into "FILE:LINE:COL: invalid JSON: …".
// Duplicate object keys are rejected too (JSON allows them, we do not:
// the second would silently win).
nlohmann::ordered_json parse_json_or_throw(std::string_view text, const std::string& source);
// 1-based line and column of a byte offset.
std::pair<int, int> line_and_column(std::string_view text, size_t offset);

// The pieces parse_json_or_throw is made of, for readers that stream (the
// manifest's SAX reader) and must say the same thing about the same input.
// nlohmann recurses per nesting level: deeper input is refused.
inline constexpr int k_max_json_depth = 256;
// Throws for text that is only whitespace, or holds a NUL byte (nlohmann's
// lexer takes one for the end of input).
void check_json_text(std::string_view text, const std::string& source);
// nlohmann's exception (its id and what(): a parse error at byte `byte` of
// `text`, or a number out of range) as an InputError with its place.
InputError json_error(int id, std::string what, size_t byte, std::string_view text, const std::string& source);
InputError json_too_deep(const std::string& source);
InputError json_duplicate_key(const std::string& source, const std::string& key);

}  // namespace dispatchctl
