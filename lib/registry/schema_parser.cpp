#include "registry/schema_parser.h"

#include <array>
#include <cctype>
#include <limits>
#include <tuple>

#include "registry/registry.h"
#include "registry/schema_parser_cursor.h"
#include "registry/schema_parser_defaults.h"
#include "util/parse_number.h"
#include "util/suggest.h"

namespace dispatchctl {
namespace {

using schema_parsing::base_type_names;
using schema_parsing::is_base_type;
using schema_parsing::parse_default_value;
using schema_parsing::Tok;
using schema_parsing::Token;
using schema_parsing::TokenCursor;

// Reads a schema as function_schema_parser.cpp does: the name, then arguments
// and returns, each a type (schema_type_parser.cpp), an alias annotation, a
// name and a default (schema_parser_defaults.cpp).
class Parser : TokenCursor {
 public:
  Parser(std::string_view text, const SchemaParseOptions& options) : TokenCursor(text), options_(options) {}

  FunctionSchema parse() {
    FunctionSchema schema;
    parse_name(schema);
    if (!is_char('(')) {
      // PyTorch parsed an operator name alone; anything after it is an error.
      next_if(Tok::Newline);
      expect(Tok::Eof);
      throw SchemaError{cur().offset, "Tried to parse a function schema but only the operator name was given",
                        "write NAME(ARGUMENTS) -> RETURNS, e.g. '" + schema.full_name() + "(Tensor self) -> Tensor'"};
    }
    allow_typevars_ = options_.typevars_everywhere || schema.name.rfind("aten::", 0) == 0 ||
                      schema.name.rfind("prim::", 0) == 0;
    bool kwarg_only = false;
    parse_list('(', ',', ')', [&] {
      if (schema.is_vararg) fail(cur(), "... must be the last element of the argument list");
      if (next_if('*')) kwarg_only = true;
      else if (next_if(Tok::Dots)) schema.is_vararg = true;
      else schema.arguments.push_back(parse_argument(false, kwarg_only));
    });
    if (schema.is_vararg)
      for (const auto& a : schema.arguments)
        if (a.default_value) fail(cur(), "schemas with vararg (...) can't have default value args");
    expect(Tok::Arrow);
    if (next_if(Tok::Dots)) {
      schema.is_varret = true;
    } else if (is_char('(')) {
      parse_list('(', ',', ')', [&] {
        if (schema.is_varret) fail(cur(), "... must be the last element of the return list");
        if (next_if(Tok::Dots)) schema.is_varret = true;
        else schema.returns.push_back(parse_argument(true, false));
      });
    } else {
      schema.returns.push_back(parse_argument(true, false));
    }
    next_if(Tok::Newline);
    expect(Tok::Eof);
    check_defaults_order(schema);
    return schema;
  }

 private:
  void parse_name(FunctionSchema& schema) {
    schema.name = std::string(expect(Tok::Ident).text);
    if (next_if(':')) {
      expect(':');
      schema.name += "::" + std::string(expect(Tok::Ident).text);
    }
    if (next_if('.')) {
      const Token& overload = expect(Tok::Ident);
      schema.overload_name = std::string(overload.text);
      if (schema.overload_name == "default" || schema.overload_name.rfind("__", 0) == 0)
        fail(overload, schema.overload_name + " is not a legal overload name for aten operators",
             "'default' names the overload without a name: drop '." + schema.overload_name + "'");
    }
  }

  std::string parse_alias() {
    const size_t start = cur().offset;
    if (next_if('(')) {
      auto sets = [&] {
        parse_list(0, '|', 0, [&] {
          if (!next_if('*')) expect(Tok::Ident);
        });
      };
      sets();
      next_if('!');
      if (next_if(Tok::Arrow)) sets();
      const size_t end = expect(')').offset;
      return std::string(text().substr(start + 1, end - start - 1));
    }
    if (next_if('!')) return "!";
    return "";
  }

  SchemaType parse_contained(SchemaType::Kind kind) {
    next();
    expect('(');
    SchemaType t{kind, "", {}};
    t.contained.push_back(parse_type().first);
    expect(')');
    return t;
  }

  SchemaType parse_base_type() {
    const Token& tok = cur();
    if (tok.kind == Tok::Keyword && (tok.text == "None" || tok.text == "NoneType")) next();
    else expect(Tok::Ident);
    const std::string name(tok.text);
    if (is_base_type(name)) return {SchemaType::Kind::Named, name, {}};
    if (allow_typevars_ && std::islower(static_cast<unsigned char>(name[0])))
      return {SchemaType::Kind::TypeVar, name, {}};
    if (name == "double")
      fail(tok, "Use `float` instead of `double` in an operator's schema string. `float` in schema corresponds "
                "to the double type in C++", "write float");
    if (name == "int64_t")
      fail(tok, "Use `SymInt` or `int` instead of `int64_t` in an operator's schema string. `SymInt` corresponds "
                "to c10::SymInt in C++ while `int` in schema corresponds to the int64_t type in C++.", "write int");
    auto match = closest_match(name, base_type_names());
    std::string fix = match ? "did you mean '" + *match + "'?" : "common types: Tensor, SymInt, int, float, bool, Scalar";
    if (std::islower(static_cast<unsigned char>(name[0])) && !match)
      fix += " (lower-case type variables like 't' are allowed only in aten:: and prim:: schemas)";
    fail(tok, "unknown type specifier '" + name + "'", fix);
  }

  // Returns the type and its alias annotation.
  std::pair<SchemaType, std::string> parse_type() {
    SchemaType t;
    std::string alias;
    if (is_char('(')) {
      t.kind = SchemaType::Kind::Tuple;
      parse_list('(', ',', ')', [&] { t.contained.push_back(parse_type().first); });
    } else if (is_ident("Future")) {
      t = parse_contained(SchemaType::Kind::Future);
    } else if (is_ident("Await")) {
      t = parse_contained(SchemaType::Kind::Await);
    } else if (is_ident("RRef")) {
      t = parse_contained(SchemaType::Kind::RRef);
    } else if (is_ident("Dict") || is_ident("Union")) {
      t.kind = is_ident("Dict") ? SchemaType::Kind::Dict : SchemaType::Kind::Union;
      next();
      expect('(');
      t.contained.push_back(parse_type().first);
      if (t.kind == SchemaType::Kind::Dict) {
        expect(',');
        t.contained.push_back(parse_type().first);
      } else {
        while (!is_char(')')) {
          expect(',');
          t.contained.push_back(parse_type().first);
        }
      }
      expect(')');
      alias = parse_alias();
    } else if (is_ident("__torch__")) {
      // A TorchBind class (__torch__.torch.classes.NS.NAME); whether it is
      // registered is known only to the process that loads it.
      t.kind = SchemaType::Kind::CustomClass;
      t.name = std::string(next().text);
      for (const char* part : std::array<const char*, 4>{"torch", "classes", nullptr, nullptr}) {
        expect('.');
        const Token& word = expect(Tok::Ident);
        if (part && word.text != part) fail(word, "Expected classes namespace but got " + std::string(word.text));
        t.name += "." + std::string(word.text);
      }
    } else {
      t = parse_base_type();
      alias = parse_alias();
    }
    while (true) {
      if (is_char('[') && lookahead().kind == Tok::Char && lookahead().text == "]") {
        next();
        next();
        t = SchemaType{SchemaType::Kind::List, "", {std::move(t)}};
        const std::string container = parse_alias();
        if (!container.empty() || !alias.empty()) alias = container.empty() ? alias : container;
      } else if (next_if('?')) {
        t = SchemaType{SchemaType::Kind::Optional, "", {std::move(t)}};
      } else {
        break;
      }
    }
    return {std::move(t), std::move(alias)};
  }

  SchemaArgument parse_argument(bool is_return, bool kwarg_only) {
    SchemaArgument a;
    std::tie(a.type, a.alias) = parse_type();
    if (next_if('[')) {
      // A size hint (int[2]) can only occur at the argument level.
      a.type = SchemaType{SchemaType::Kind::List, "", {std::move(a.type)}};
      const Token& n = expect(Tok::Number);
      // PyTorch reads it with stoll and keeps the low 32 bits (int[4294967297] is int[1]): refused here.
      const auto size = parse_integer<int>(n.text, 0, std::numeric_limits<int>::max());
      if (!size)
        fail(n, "list size " + std::string(n.text) + " is out of range",
             "write a size from 0 to " + std::to_string(std::numeric_limits<int>::max()));
      a.size = *size;
      expect(']');
      const std::string container = parse_alias();
      if (!container.empty()) a.alias = container;
      if (next_if('?')) a.type = SchemaType{SchemaType::Kind::Optional, "", {std::move(a.type)}};
    }
    if (is_return) {
      if (cur().kind == Tok::Ident) a.name = std::string(next().text);
      return a;
    }
    a.name_offset = cur().offset;
    a.name = std::string(expect(Tok::Ident).text);
    a.kwarg_only = kwarg_only;
    if (next_if('=')) {
      const size_t start = cur().offset;
      parse_default_value(*this, a.type, a.size);
      a.default_value = std::string(text().substr(start, cur().offset - start));
      while (!a.default_value->empty() && a.default_value->back() == ' ') a.default_value->pop_back();
    }
    return a;
  }


  // FunctionSchema::checkSchema: a positional argument without a default may
  // not follow one with a default (lists excepted, for backward compatibility).
  void check_defaults_order(const FunctionSchema& schema) const {
    bool seen_default = false;
    for (const auto& a : schema.arguments) {
      if (a.default_value) seen_default = true;
      else if (a.type.kind != SchemaType::Kind::List && seen_default && !a.kwarg_only)
        throw SchemaError{a.name_offset, "Non-default positional argument follows default argument. Parameter " +
                                                  a.name,
                          "give '" + a.name + "' a default, or move it before the defaults or after '*'"};
    }
  }

  SchemaParseOptions options_;
  bool allow_typevars_ = false;
};

bool is_tensor_like(const SchemaType& t, bool allow_list) {
  switch (t.kind) {
    case SchemaType::Kind::Named: return t.name == "Tensor";
    case SchemaType::Kind::Optional: return is_tensor_like(t.contained[0], allow_list);
    case SchemaType::Kind::List: return allow_list && is_tensor_like(t.contained[0], false);
    default: return false;
  }
}

}  // namespace

bool SchemaType::tensor_like() const { return is_tensor_like(*this, true); }
bool SchemaType::tensor_list() const {
  if (kind == Kind::Optional) return contained[0].tensor_list();
  return kind == Kind::List && is_tensor_like(contained[0], false);
}

std::variant<FunctionSchema, SchemaError> parse_function_schema(std::string_view text,
                                                                 const SchemaParseOptions& options) {
  try {
    return Parser(text, options).parse();
  } catch (const SchemaError& e) {
    return e;
  }
}

TensorArity tensor_arity(const FunctionSchema& schema) {
  TensorArity arity;
  arity.max = 0;
  for (const auto& a : schema.arguments) {
    const bool opaque = a.type.kind == SchemaType::Kind::TypeVar ||
                        (a.type.kind == SchemaType::Kind::Named && a.type.name == "Any");
    if (opaque || a.type.tensor_list()) {
      arity.max.reset();
      if (a.type.tensor_list()) arity.names.push_back(a.name + "[]");
      continue;
    }
    if (!a.type.tensor_like()) continue;
    const bool optional = a.type.kind == SchemaType::Kind::Optional || a.default_value;
    arity.names.push_back(a.name + (optional ? "?" : ""));
    if (!optional) ++arity.min;
    if (arity.max) ++*arity.max;
  }
  if (schema.is_vararg) arity.max.reset();
  return arity;
}

std::optional<FunctionSchema> operator_schema(const Operator& op) {
  if (!op.schema) return std::nullopt;
  auto parsed = parse_function_schema(op.schema->text, {true});
  if (auto* schema = std::get_if<FunctionSchema>(&parsed)) return std::move(*schema);
  return std::nullopt;
}

}  // namespace dispatchctl
