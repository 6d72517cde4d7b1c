#include "util/json_parse.h"

#include <unordered_set>

#include "util/errors.h"

namespace dispatchctl {

std::pair<int, int> line_and_column(std::string_view text, size_t offset) {
  int line = 1, column = 1;
  for (size_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  return {line, column};
}

nlohmann::ordered_json parse_json_or_throw(std::string_view text, const std::string& source) {
  using json = nlohmann::ordered_json;
  if (text.find_first_not_of(" \t\r\n") == std::string_view::npos)
    throw InputError(source + ": empty file; expected a JSON document");
  // nlohmann's lexer takes a NUL byte for the end of input, so
  // `{...}<NUL>garbage` would load without a word (found by tests/bad_input).
  // JSON text never holds a raw NUL (strings must escape it as \u0000).
  if (const size_t nul = text.find('\0'); nul != std::string_view::npos) {
    auto [line, column] = line_and_column(text, nul);
    throw InputError(source + ":" + std::to_string(line) + ":" + std::to_string(column) +
                     ": invalid JSON: NUL byte; JSON text cannot contain one");
  }
  // Depth limit: nlohmann recurses per nesting level; bound it so hostile
  // input cannot exhaust the stack.
  constexpr int k_max_depth = 256;
  std::string duplicate;
  std::vector<std::unordered_set<std::string>> seen_keys;
  auto callback = [&](int d, json::parse_event_t event, json& parsed) {
    if (d > k_max_depth) throw InputError(source + ": JSON nested deeper than 256 levels");
    if (event == json::parse_event_t::object_start) seen_keys.emplace_back();
    if (event == json::parse_event_t::object_end && !seen_keys.empty()) seen_keys.pop_back();
    if (event == json::parse_event_t::key && !seen_keys.empty()) {
      const auto& key = parsed.get_ref<const std::string&>();
      if (!seen_keys.back().insert(key).second && duplicate.empty()) duplicate = key;
    }
    return true;
  };
  try {
    json doc = json::parse(text.begin(), text.end(), callback);
    if (!duplicate.empty())
      throw InputError(source + ": duplicate key \"" + duplicate +
                       "\" in one JSON object; keep only one");
    return doc;
  } catch (const json::parse_error& e) {
    auto [line, column] = line_and_column(text, e.byte == 0 ? 0 : e.byte - 1);
    std::string what = e.what();
    // nlohmann's text: "[json.exception.parse_error.101] parse error at line 1, column 2: syntax error …"
    if (auto colon = what.find(": "); colon != std::string::npos) what = what.substr(colon + 2);
    throw InputError(source + ":" + std::to_string(line) + ":" + std::to_string(column) +
                     ": invalid JSON: " + what);
  } catch (const json::out_of_range& e) {
    // A number literal nlohmann cannot hold (1e400) throws out_of_range, not
    // parse_error, and carries no position (tests/bad_input: format_1e400.json).
    std::string what = e.what();
    if (auto bracket = what.find("] "); bracket != std::string::npos) what = what.substr(bracket + 2);
    throw InputError(source + ": invalid JSON: " + what + "; use a smaller number");
  }
}

}  // namespace dispatchctl
