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

void check_json_text(std::string_view text, const std::string& source) {
  if (text.find_first_not_of(" \t\r\n") == std::string_view::npos)
    throw InputError({source}, "empty file; expected a JSON document");
  // nlohmann's lexer takes a NUL byte for the end of input, so
  // `{...}<NUL>garbage` would load without a word (found by tests/bad_input).
  // JSON text never holds a raw NUL (strings must escape it as \u0000).
  if (const size_t nul = text.find('\0'); nul != std::string_view::npos) {
    auto [line, column] = line_and_column(text, nul);
    throw InputError({source, "", line, column}, "invalid JSON: NUL byte; JSON text cannot contain one");
  }
}

InputError json_error(int id, std::string what, size_t byte, std::string_view text, const std::string& source) {
  // A number literal nlohmann cannot hold (1e400) is out_of_range (4xx), not a
  // parse error, and carries no position (tests/bad_input: format_1e400.json).
  if (id >= 400 && id < 500) {
    if (auto bracket = what.find("] "); bracket != std::string::npos) what = what.substr(bracket + 2);
    return InputError({source}, "invalid JSON: " + what + "; use a smaller number");
  }
  auto [line, column] = line_and_column(text, byte == 0 ? 0 : byte - 1);
  // nlohmann's text: "[json.exception.parse_error.101] parse error at line 1, column 2: syntax error …"
  if (auto colon = what.find(": "); colon != std::string::npos) what = what.substr(colon + 2);
  return InputError({source, "", line, column}, "invalid JSON: " + what);
}

InputError json_too_deep(const std::string& source) {
  return InputError({source}, "JSON nested deeper than " + std::to_string(k_max_json_depth) + " levels");
}

InputError json_duplicate_key(const std::string& source, const std::string& key) {
  return InputError({source}, "duplicate key \"" + key + "\" in one JSON object; keep only one");
}

nlohmann::ordered_json parse_json_or_throw(std::string_view text, const std::string& source) {
  using json = nlohmann::ordered_json;
  check_json_text(text, source);
  std::string duplicate;
  std::vector<std::unordered_set<std::string>> seen_keys;
  auto callback = [&](int d, json::parse_event_t event, json& parsed) {
    if (d > k_max_json_depth) throw json_too_deep(source);
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
    if (!duplicate.empty()) throw json_duplicate_key(source, duplicate);
    return doc;
  } catch (const json::parse_error& e) {
    throw json_error(e.id, e.what(), e.byte, text, source);
  } catch (const json::out_of_range& e) {
    throw json_error(e.id, e.what(), 0, text, source);
  }
}

}  // namespace dispatchctl
