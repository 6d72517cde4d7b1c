#include "registry/schema_parser_defaults.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cstdint>
#include <string>
#include <system_error>

namespace dispatchctl::schema_parsing {
namespace {

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

DefaultKind kind_of(const SchemaType& t) {
  switch (t.kind) {
    case SchemaType::Kind::Named: return find_base(t.name)->kind;
    case SchemaType::Kind::Optional: return DefaultKind::Number;  // parseSingleConstant, any constant
    default: return DefaultKind::Unsupported;
  }
}

bool possibly_scalar_type(const SchemaType& t) {
  if (t.kind == SchemaType::Kind::Named) return t.name == "ScalarType";
  return t.kind == SchemaType::Kind::Optional && possibly_scalar_type(t.contained[0]);
}

// parseSingleConstant: returns the constant's kind as PyTorch's IValue would hold it.
DefaultKind parse_single(TokenCursor& c, DefaultKind kind, const SchemaType& real) {
  const Token& tok = c.cur();
  if (tok.kind == Tok::Keyword && (tok.text == "True" || tok.text == "False")) return c.next(), DefaultKind::Bool;
  if (tok.kind == Tok::Keyword && tok.text == "None") return c.next(), DefaultKind::NoneOnly;
  if (tok.kind == Tok::String) return c.next(), DefaultKind::String;
  if (tok.kind == Tok::Ident) {
    c.next();
    for (auto word : {"float", "complex", "long", "strided", "Mean", "contiguous_format"})
      if (tok.text == word) return DefaultKind::Int;
    if (possibly_scalar_type(real) &&
        std::find(k_dtype_names.begin(), k_dtype_names.end(), tok.text) != k_dtype_names.end())
      return DefaultKind::Int;
    c.fail(tok, "invalid numeric default value",
           "use a number, True, False, None, a string, or one of float, long, strided, Mean, contiguous_format");
  }
  const bool negative = c.next_if('-');
  const Token& n = c.expect(Tok::Number);
  std::string number(n.text);
  if (negative) number.insert(number.begin(), '-');
  if (kind == DefaultKind::Complex || number.find('j') != std::string::npos) return DefaultKind::Complex;
  if (kind == DefaultKind::Float || number.find_first_of(".eE") != std::string::npos) return DefaultKind::Float;
  // Only the range is checked: like PyTorch's stoll, the digits read are the number ("0x10" is 0).
  std::int64_t value = 0;
  if (std::from_chars(number.data(), number.data() + number.size(), value).ec == std::errc::result_out_of_range)
    c.fail(n, "default value " + number + " does not fit in int64");
  return DefaultKind::Int;
}

// convertToList: every element must already be of the list's kind (PyTorch
// asserts, e.g. "isInt() INTERNAL ASSERT FAILED", on a 1.5 in an int[]).
void check_list_elements(const TokenCursor& c, const Token& at, DefaultKind element,
                         const std::vector<DefaultKind>& values) {
  if (element != DefaultKind::Int && element != DefaultKind::Float && element != DefaultKind::Bool &&
      element != DefaultKind::Complex)
    c.fail(at, "lists are only supported for float, int and complex types", "use None");
  for (DefaultKind v : values) {
    const bool ok = v == element || (element == DefaultKind::Complex && v != DefaultKind::Bool &&
                                     v != DefaultKind::String && v != DefaultKind::NoneOnly);
    if (!ok) {
      const char* name = element == DefaultKind::Int ? "int" : element == DefaultKind::Float ? "float"
                         : element == DefaultKind::Bool ? "bool" : "complex";
      c.fail(at, std::string("a list default of this type holds ") + name + " values only",
             std::string("write every element as ") + name);
    }
  }
}

}  // namespace

void parse_default_value(TokenCursor& c, const SchemaType& type, std::optional<int> size) {
  const Token& at = c.cur();
  const DefaultKind kind = kind_of(type);
  if (type.kind == SchemaType::Kind::List) {
    const SchemaType& element = type.contained[0];
    const DefaultKind element_kind = kind_of(element);
    if (c.cur().kind == Tok::Ident) {
      c.expect_keyword("None");  // PyTorch's parseTensorDefault
    } else if (size && !c.is_char('[')) {
      check_list_elements(c, at, element_kind, {parse_single(c, element_kind, element)});
    } else {
      std::vector<DefaultKind> values;
      c.expect('[');
      if (!c.is_char(']')) {
        do values.push_back(parse_single(c, element_kind, element));
        while (c.next_if(','));
      }
      c.expect(']');
      check_list_elements(c, at, element_kind, values);
    }
    return;
  }
  switch (kind) {
    case DefaultKind::NoneOnly: c.expect_keyword("None"); return;
    case DefaultKind::Device: {
      const Token& s = c.expect(Tok::String);
      const auto device = s.text.substr(1, s.text.size() - 2);
      if (device.empty() || !std::islower(static_cast<unsigned char>(device[0])))
        c.fail(s, "invalid device string '" + std::string(device) + "'", "e.g. 'cpu' or 'cuda:0'");
      return;
    }
    case DefaultKind::Unsupported: c.fail(at, "unexpected type, file a bug report", "this type takes no default");
    default: parse_single(c, kind, type);
  }
}

bool is_base_type(std::string_view name) { return find_base(name) != nullptr; }

std::vector<std::string_view> base_type_names() {
  std::vector<std::string_view> names;
  for (const auto& b : k_base_types) names.push_back(b.name);
  return names;
}

}  // namespace dispatchctl::schema_parsing
