#include "registry/schema_parser.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <tuple>
#include <cstdlib>

#include "registry/schema_lexer.h"
#include "util/suggest.h"

namespace dispatchctl {
namespace {

using schema_lexer::kind_text;
using schema_lexer::Tok;
using schema_lexer::Token;

// ---- parser -------------------------------------------------------------------

// Base type names (schema_type_parser.cpp's type_map) and the kind each one's
// default value is parsed as (parseDefaultValue switches on the "fake" type:
// ScalarType, Layout, MemoryFormat and SymInt are ints there).
enum class DefaultKind { NoneOnly, Int, Float, Bool, Complex, Number, String, Device, Unsupported };
struct BaseType {
  std::string_view name;
  DefaultKind kind;
};
constexpr std::array<BaseType, 28> k_base_types = {{
    {"Tensor", DefaultKind::NoneOnly},      {"Generator", DefaultKind::NoneOnly},
    {"Quantizer", DefaultKind::NoneOnly},   {"Dimname", DefaultKind::String},
    {"ScalarType", DefaultKind::Int},       {"Layout", DefaultKind::Int},
    {"MemoryFormat", DefaultKind::Int},     {"Storage", DefaultKind::Unsupported},
    {"QScheme", DefaultKind::Unsupported},  {"ConstQuantizerPtr", DefaultKind::Int},
    {"Device", DefaultKind::Device},        {"DeviceIndex", DefaultKind::Int},
    {"Stream", DefaultKind::Unsupported},   {"Scalar", DefaultKind::Number},
    {"str", DefaultKind::String},           {"float", DefaultKind::Float},
    {"complex", DefaultKind::Complex},      {"int", DefaultKind::Int},
    {"SymInt", DefaultKind::Int},           {"bool", DefaultKind::Bool},
    {"None", DefaultKind::Unsupported},     {"NoneType", DefaultKind::Unsupported},
    {"Capsule", DefaultKind::Unsupported},  {"Any", DefaultKind::Unsupported},
    {"AnyClassType", DefaultKind::Unsupported}, {"AnyEnumType", DefaultKind::Unsupported},
    {"SymFloat", DefaultKind::Float},       {"SymBool", DefaultKind::Bool},
}};

const BaseType* find_base(std::string_view name) {
  for (const auto& b : k_base_types)
    if (b.name == name) return &b;
  return nullptr;
}

// Identifiers a ScalarType default may name (c10::getStringToDtypeMap) besides
// the historical float/long/complex.
constexpr std::array<std::string_view, 24> k_dtype_names = {
    "float32", "float64", "double", "float16", "half", "bfloat16", "complex32", "chalf",
    "complex64", "cfloat", "complex128", "cdouble", "uint8", "int8", "int16", "short",
    "int32", "int", "int64", "bool", "float8_e4m3fn", "float8_e5m2", "uint16", "uint32"};

class Parser {
 public:
  Parser(std::string_view text, const SchemaParseOptions& options)
      : text_(text), tokens_(schema_lexer::tokenize(text)), options_(options) {}

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
      return std::string(text_.substr(start + 1, end - start - 1));
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
    if (find_base(name)) return {SchemaType::Kind::Named, name, {}};
    if (allow_typevars_ && std::islower(static_cast<unsigned char>(name[0])))
      return {SchemaType::Kind::TypeVar, name, {}};
    if (name == "double")
      fail(tok, "Use `float` instead of `double` in an operator's schema string. `float` in schema corresponds "
                "to the double type in C++", "write float");
    if (name == "int64_t")
      fail(tok, "Use `SymInt` or `int` instead of `int64_t` in an operator's schema string. `SymInt` corresponds "
                "to c10::SymInt in C++ while `int` in schema corresponds to the int64_t type in C++.", "write int");
    std::vector<std::string_view> names;
    for (const auto& b : k_base_types) names.push_back(b.name);
    auto match = closest_match(name, names);
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
      a.size = std::atoi(std::string(n.text).c_str());
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
      parse_default(a.type, a.size);
      a.default_value = std::string(text_.substr(start, cur().offset - start));
      while (!a.default_value->empty() && a.default_value->back() == ' ') a.default_value->pop_back();
    }
    return a;
  }

  static DefaultKind kind_of(const SchemaType& t) {
    switch (t.kind) {
      case SchemaType::Kind::Named: return find_base(t.name)->kind;
      case SchemaType::Kind::Optional: return DefaultKind::Number;  // parseSingleConstant, any constant
      default: return DefaultKind::Unsupported;
    }
  }

  static bool possibly_scalar_type(const SchemaType& t) {
    if (t.kind == SchemaType::Kind::Named) return t.name == "ScalarType";
    return t.kind == SchemaType::Kind::Optional && possibly_scalar_type(t.contained[0]);
  }

  // parseSingleConstant: returns the constant's kind as PyTorch's IValue would hold it.
  DefaultKind parse_single(DefaultKind kind, const SchemaType& real) {
    const Token& tok = cur();
    if (tok.kind == Tok::Keyword && (tok.text == "True" || tok.text == "False")) return next(), DefaultKind::Bool;
    if (tok.kind == Tok::Keyword && tok.text == "None") return next(), DefaultKind::NoneOnly;
    if (tok.kind == Tok::String) return next(), DefaultKind::String;
    if (tok.kind == Tok::Ident) {
      next();
      for (auto word : {"float", "complex", "long", "strided", "Mean", "contiguous_format"})
        if (tok.text == word) return DefaultKind::Int;
      if (possibly_scalar_type(real) &&
          std::find(k_dtype_names.begin(), k_dtype_names.end(), tok.text) != k_dtype_names.end())
        return DefaultKind::Int;
      fail(tok, "invalid numeric default value",
           "use a number, True, False, None, a string, or one of float, long, strided, Mean, contiguous_format");
    }
    const bool negative = next_if('-');
    const Token& n = expect(Tok::Number);
    std::string number(n.text);
    if (negative) number.insert(number.begin(), '-');
    if (kind == DefaultKind::Complex || number.find('j') != std::string::npos) return DefaultKind::Complex;
    if (kind == DefaultKind::Float || number.find_first_of(".eE") != std::string::npos) return DefaultKind::Float;
    errno = 0;
    (void)std::strtoll(number.c_str(), nullptr, 10);
    if (errno == ERANGE) fail(n, "default value " + number + " does not fit in int64");
    return DefaultKind::Int;
  }

  // convertToList: every element must already be of the list's kind (PyTorch
  // asserts, e.g. "isInt() INTERNAL ASSERT FAILED", on a 1.5 in an int[]).
  void check_list_elements(const Token& at, DefaultKind element, const std::vector<DefaultKind>& values) {
    if (element != DefaultKind::Int && element != DefaultKind::Float && element != DefaultKind::Bool &&
        element != DefaultKind::Complex)
      fail(at, "lists are only supported for float, int and complex types", "use None");
    for (DefaultKind v : values) {
      const bool ok = v == element || (element == DefaultKind::Complex && v != DefaultKind::Bool &&
                                       v != DefaultKind::String && v != DefaultKind::NoneOnly);
      if (!ok) {
        const char* name = element == DefaultKind::Int ? "int" : element == DefaultKind::Float ? "float"
                           : element == DefaultKind::Bool ? "bool" : "complex";
        fail(at, std::string("a list default of this type holds ") + name + " values only",
             std::string("write every element as ") + name);
      }
    }
  }

  void parse_default(const SchemaType& type, std::optional<int> size) {
    const Token& at = cur();
    const DefaultKind kind = kind_of(type);
    if (type.kind == SchemaType::Kind::List) {
      const SchemaType& element = type.contained[0];
      const DefaultKind element_kind = kind_of(element);
      if (cur().kind == Tok::Ident) {
        expect_keyword("None");  // PyTorch's parseTensorDefault
      } else if (size && !is_char('[')) {
        check_list_elements(at, element_kind, {parse_single(element_kind, element)});
      } else {
        std::vector<DefaultKind> values;
        expect('[');
        if (!is_char(']')) {
          do values.push_back(parse_single(element_kind, element));
          while (next_if(','));
        }
        expect(']');
        check_list_elements(at, element_kind, values);
      }
      return;
    }
    switch (kind) {
      case DefaultKind::NoneOnly: expect_keyword("None"); return;
      case DefaultKind::Device: {
        const Token& s = expect(Tok::String);
        const auto device = s.text.substr(1, s.text.size() - 2);
        if (device.empty() || !std::islower(static_cast<unsigned char>(device[0])))
          fail(s, "invalid device string '" + std::string(device) + "'", "e.g. 'cpu' or 'cuda:0'");
        return;
      }
      case DefaultKind::Unsupported: fail(at, "unexpected type, file a bug report", "this type takes no default");
      default: parse_single(kind, type);
    }
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

  std::string_view text_;
  std::vector<Token> tokens_;
  size_t pos_ = 0;
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

}  // namespace dispatchctl
