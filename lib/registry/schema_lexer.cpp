#include "registry/schema_lexer.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdlib>

namespace dispatchctl::schema_lexer {
namespace {

// Python keywords the JIT lexer turns into tokens of their own: they cannot
// name a type or an argument (`Tensor in` is refused, `from` is not a keyword there).
constexpr std::array<std::string_view, 27> k_keywords = {
    "def", "return", "if", "else", "elif", "while", "for", "in", "not", "and", "or", "is", "True", "False",
    "None", "NoneType", "pass", "break", "continue", "class", "raise", "assert", "global", "del", "with",
    "as", "import"};

}  // namespace

std::string kind_text(const Token& t) {
  switch (t.kind) {
    case Tok::Ident: return "ident";
    case Tok::Number: return "number";
    case Tok::String: return "string_literal";
    case Tok::Arrow: return "arrow";
    case Tok::Dots: return "dots";
    case Tok::Newline: return "newline";
    case Tok::Eof: return "eof";
    default: return std::string(t.text);
  }
}

std::vector<Token> tokenize(std::string_view s) {
  std::vector<Token> out;
  int nesting = 0;  // newlines inside brackets are whitespace
  size_t i = 0;
  auto push = [&](Tok kind, size_t start, size_t len) { out.push_back({kind, s.substr(start, len), start}); };
  while (i < s.size()) {
    const char c = s[i];
    if (c == ' ' || c == '\t' || c == '\r' || (c == '\n' && nesting > 0)) {
      ++i;
    } else if (c == '\n') {
      push(Tok::Newline, i++, 1);
    } else if (c == '#') {
      while (i < s.size() && s[i] != '\n') ++i;
    } else if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      size_t j = i;
      while (j < s.size() && (std::isalnum(static_cast<unsigned char>(s[j])) || s[j] == '_')) ++j;
      const auto word = s.substr(i, j - i);
      const bool keyword = std::find(k_keywords.begin(), k_keywords.end(), word) != k_keywords.end();
      push(keyword ? Tok::Keyword : Tok::Ident, i, j - i);
      i = j;
    } else if (s.substr(i, 3) == "...") {
      push(Tok::Dots, i, 3);
      i += 3;
    } else if (s.substr(i, 2) == "->") {
      push(Tok::Arrow, i, 2);
      i += 2;
    } else if (std::isdigit(static_cast<unsigned char>(c)) || c == '.') {
      // Like the JIT lexer: whatever strtod reads, plus a 'j' for complex.
      const std::string rest(s.substr(i, 64));
      char* end = nullptr;
      std::strtod(rest.c_str(), &end);
      size_t len = static_cast<size_t>(end - rest.c_str());
      if (len > 0 && i + len < s.size() && s[i + len] == 'j') ++len;
      if (len == 0) {
        push(Tok::Char, i++, 1);
      } else {
        push(Tok::Number, i, len);
        i += len;
      }
    } else if (c == '"' || c == '\'') {
      size_t j = i + 1;
      while (j < s.size() && s[j] != c) j += s[j] == '\\' ? 2 : 1;
      if (j >= s.size()) throw SchemaError{i, "unterminated string literal", "close it with " + std::string(1, c)};
      push(Tok::String, i, j + 1 - i);
      i = j + 1;
    } else if (std::string_view("()[],=*!?|:.-").find(c) != std::string_view::npos) {
      if (c == '(' || c == '[') ++nesting;
      if ((c == ')' || c == ']') && nesting > 0) --nesting;
      push(Tok::Char, i++, 1);
    } else {
      throw SchemaError{i, "'" + std::string(s.substr(i, 1)) + "' is not a valid token", ""};
    }
  }
  out.push_back({Tok::Eof, s.substr(s.size()), s.size()});
  return out;
}

}  // namespace dispatchctl::schema_lexer
