// The tokens of PyTorch's JIT lexer (torch/csrc/jit/frontend/lexer.h) that
// operator schemas use, with PyTorch's names for them in error messages.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "registry/schema_parser.h"

namespace dispatchctl::schema_lexer {

enum class Tok { Ident, Keyword, Number, String, Arrow, Dots, Char, Newline, Eof };

struct Token {
  Tok kind = Tok::Eof;
  std::string_view text;
  size_t offset = 0;
};

// PyTorch's kindToString: "ident", "number", "eof", "(", "None", …
std::string kind_text(const Token& t);
// Ends with an Eof token; throws SchemaError on a character no token starts with.
std::vector<Token> tokenize(std::string_view s);

}  // namespace dispatchctl::schema_lexer
