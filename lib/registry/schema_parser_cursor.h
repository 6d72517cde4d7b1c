// A cursor over an operator schema's tokens with the checks PyTorch's schema
// parser makes (expect, parseList) and its wording when they fail. The parser
// (schema_parser.cpp) and the default-value reader (schema_parser_defaults.cpp)
// both read through it.
#pragma once

#include <algorithm>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "registry/schema_lexer.h"
#include "registry/schema_parser.h"

namespace dispatchctl::schema_parsing {

using schema_lexer::kind_text;
using schema_lexer::Tok;
using schema_lexer::Token;

class TokenCursor {
 public:
  explicit TokenCursor(std::string_view text) : text_(text), tokens_(schema_lexer::tokenize(text)) {}

  std::string_view text() const { return text_; }
  const Token& cur() const { return tokens_[pos_]; }
  const Token& lookahead() const { return tokens_[std::min(pos_ + 1, tokens_.size() - 1)]; }
  const Token& next() { return tokens_[pos_ < tokens_.size() - 1 ? pos_++ : pos_]; }
  bool is_char(char c) const { return cur().kind == Tok::Char && cur().text[0] == c; }
  bool is_ident(std::string_view word) const { return cur().kind == Tok::Ident && cur().text == word; }
  bool next_if(char c) { return is_char(c) ? (next(), true) : false; }
  bool next_if(Tok kind) { return cur().kind == kind ? (next(), true) : false; }

  [[noreturn]] void fail(const Token& at, std::string message, std::string fix = "") const {
    throw SchemaError{at.offset, std::move(message), std::move(fix)};
  }
  [[noreturn]] void fail_expected(std::string expected) const {
    std::string fix;
    if (cur().kind == Tok::Keyword && expected == "ident") fix = "'" + std::string(cur().text) + "' is a Python keyword; rename it";
    fail(cur(), "expected " + expected + " but found '" + kind_text(cur()) + "' here", fix);
  }
  const Token& expect(char c) {
    if (!is_char(c)) fail_expected(std::string(1, c));
    return next();
  }
  const Token& expect(Tok kind) {
    if (cur().kind != kind) fail_expected(kind_text(Token{kind, {}, 0}));
    return next();
  }
  const Token& expect_keyword(std::string_view word) {
    if (cur().kind != Tok::Keyword || cur().text != word) fail_expected(std::string(word));
    return next();
  }

  template <typename F>
  void parse_list(char begin, char sep, char end, F&& each) {
    if (begin) expect(begin);
    if (!end || !is_char(end)) {
      do each();
      while (next_if(sep));
    }
    if (end) expect(end);
  }

 private:
  std::string_view text_;
  std::vector<Token> tokens_;
  size_t pos_ = 0;
};

}  // namespace dispatchctl::schema_parsing
