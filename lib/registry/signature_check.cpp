#include "registry/signature_check.h"

namespace dispatchctl {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  return s;
}

}  // namespace

// Also torchgen's schema parser's (signature_check.h).
std::vector<std::string_view> split_top_level(std::string_view s) {
  std::vector<std::string_view> parts;
  int depth = 0;
  char quote = 0;
  size_t start = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (quote) {
      if (c == '\\') ++i;
      else if (c == quote) quote = 0;
    } else if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == '(' || c == '[') {
      ++depth;
    } else if (c == ')' || c == ']') {
      --depth;
    } else if (c == ',' && depth == 0) {
      parts.push_back(trim(s.substr(start, i - start)));
      start = i + 1;
    }
  }
  auto last = trim(s.substr(start));
  if (!last.empty() || !parts.empty()) parts.push_back(last);
  return parts;
}

namespace {

// "Tensor(a!)[] out=None" -> "Tensor[]". The type ends at the first space
// outside brackets; alias annotations are parenthesised.
std::string type_of(std::string_view declaration) {
  std::string type;
  int paren = 0, bracket = 0;
  for (char c : declaration) {
    if (c == '(') { ++paren; continue; }
    if (c == ')') { --paren; continue; }
    if (paren > 0) continue;
    if (c == '[') ++bracket;
    if (c == ']') --bracket;
    if (c == ' ' && bracket == 0) break;
    type += c;
  }
  // int[2] and int[] are the same C++ type (IntArrayRef).
  if (auto open = type.find('['); open != std::string::npos) {
    auto close = type.find(']', open);
    if (close != std::string::npos) type.erase(open + 1, close - open - 1);
  }
  return type;
}

size_t matching_paren(std::string_view s, size_t open) {
  int depth = 0;
  char quote = 0;
  for (size_t i = open; i < s.size(); ++i) {
    const char c = s[i];
    if (quote) {
      if (c == '\\') ++i;
      else if (c == quote) quote = 0;
    } else if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == '(') {
      ++depth;
    } else if (c == ')' && --depth == 0) {
      return i;
    }
  }
  return std::string_view::npos;
}

}  // namespace

std::optional<ParsedSignature> parse_signature(std::string_view text) {
  text = trim(text);
  const size_t open = text.find('(');
  if (open == std::string_view::npos) return std::nullopt;
  const size_t close = matching_paren(text, open);
  if (close == std::string_view::npos) return std::nullopt;
  ParsedSignature out;
  for (auto arg : split_top_level(text.substr(open + 1, close - open - 1))) {
    if (arg == "*" || arg.empty()) continue;  // keyword-only marker
    out.argument_types.push_back(type_of(arg));
  }
  auto rest = trim(text.substr(close + 1));
  if (rest.substr(0, 2) != "->") return std::nullopt;
  rest = trim(rest.substr(2));
  if (!rest.empty() && rest.front() == '(' && matching_paren(rest, 0) == rest.size() - 1)
    rest = rest.substr(1, rest.size() - 2);
  for (auto ret : split_top_level(rest))
    if (!ret.empty()) out.return_types.push_back(type_of(ret));
  return out;
}

namespace {
// Types that print differently in a schema and an inferred signature but
// are the same C++ type to PyTorch's check.
std::string canonical(std::string type) {
  for (auto [from, to] : {std::pair{"SymInt", "int"}}) {
    for (size_t pos; (pos = type.find(from)) != std::string::npos;)
      type.replace(pos, std::string_view(from).size(), to);
  }
  return type;
}
}  // namespace

std::optional<std::string> schema_difference(std::string_view schema, std::string_view signature) {
  auto lhs = parse_signature(schema);
  auto rhs = parse_signature(signature);
  if (!lhs || !rhs) return std::nullopt;
  if (lhs->argument_types.size() != rhs->argument_types.size())
    return "The number of arguments is different. " + std::to_string(lhs->argument_types.size()) +
           " vs " + std::to_string(rhs->argument_types.size()) + ".";
  if (lhs->return_types.size() != rhs->return_types.size())
    return "The number of returns is different. " + std::to_string(lhs->return_types.size()) +
           " vs " + std::to_string(rhs->return_types.size()) + ".";
  for (size_t i = 0; i < lhs->argument_types.size(); ++i)
    if (canonical(lhs->argument_types[i]) != canonical(rhs->argument_types[i]))
      return "Type mismatch in argument " + std::to_string(i + 1) + ": " + lhs->argument_types[i] +
             " vs " + rhs->argument_types[i];
  for (size_t i = 0; i < lhs->return_types.size(); ++i)
    if (canonical(lhs->return_types[i]) != canonical(rhs->return_types[i]))
      return "Type mismatch in return " + std::to_string(i + 1) + ": " + lhs->return_types[i] +
             " vs " + rhs->return_types[i];
  return std::nullopt;
}

}  // namespace dispatchctl
