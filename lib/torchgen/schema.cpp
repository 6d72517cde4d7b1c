#include "torchgen/schema.h"

#include <stdexcept>
#include <variant>

#include "registry/signature_check.h"
#include "registry/operator_name.h"

namespace dispatchctl::torchgen {
namespace {

// torchgen's AUGMENTED_ASSIGNMENT_NAMES: `__iadd__` is the inplace `__add__`.
constexpr std::string_view k_augmented[] = {"add", "sub", "mul",    "div", "mod", "pow",
                                            "lshift", "rshift", "and", "xor", "or"};

// torchgen knows base types, optionals and lists only (torchgen/model.py Type.parse).
void check_torchgen_type(const SchemaType& type) {
  using Kind = SchemaType::Kind;
  switch (type.kind) {
    case Kind::Named: return;
    case Kind::Optional:
    case Kind::List: return check_torchgen_type(type.contained[0]);
    default: throw std::invalid_argument("a type torchgen does not have (it takes base types, T? and T[] only)");
  }
}

// torchgen's Annotation.parse regex, ^([a-z])(\|[a-z])*(!?)( -> (\*|[a-z](\|[a-z])*))?$:
// alias sets of single lower-case letters (c10 takes any name: `Tensor(out!)`).
// Without std::regex: every schema of the YAML is read per load.
bool torchgen_alias_form(std::string_view ann, size_t& before, size_t& after) {
  const auto letters = [&](size_t& pos, size_t& count) {
    if (pos >= ann.size() || ann[pos] < 'a' || ann[pos] > 'z') return false;
    for (++pos, count = 1; pos + 1 < ann.size() && ann[pos] == '|' && ann[pos + 1] >= 'a' && ann[pos + 1] <= 'z';
         pos += 2)
      ++count;
    return true;
  };
  size_t pos = 0;
  if (!letters(pos, before)) return false;
  if (pos < ann.size() && ann[pos] == '!') ++pos;
  after = 0;
  if (ann.substr(pos, 4) == " -> ") {
    pos += 4;
    if (pos < ann.size() && ann[pos] == '*') ++pos;
    else if (!letters(pos, after)) return false;
  }
  return pos == ann.size();
}

// torchgen's Annotation.parse: alias sets on Tensor types only, never a bare '!'.
void check_torchgen_alias(const SchemaType& type, const std::string& alias) {
  if (alias.empty()) return;
  const SchemaType* base = &type;
  while (!base->contained.empty()) base = &base->contained[0];
  if (alias == "!" || base->kind != SchemaType::Kind::Named || base->name != "Tensor")
    throw std::invalid_argument("malformed alias annotation '" + alias + "' (torchgen takes Tensor(a!) forms only)");
  size_t before = 0, after = 0;
  if (!torchgen_alias_form(alias, before, after))
    throw std::invalid_argument("unrecognized alias annotation " + alias +
                                " (torchgen takes alias sets of single lower-case letters: Tensor(a!), Tensor(a -> *))");
  if (before > 1 && alias.find('!') != std::string::npos)
    throw std::invalid_argument("alias set larger than 1 is not mutable, got " + alias + " instead.");
  if (before > 1 && after > 1)
    throw std::invalid_argument("before alias set and after alias set cannot be larger than 1 at the same time, got " +
                                alias + " instead.");
}

// torchgen's Arguments.parse refuses a second '*' (PyTorch's parser takes
// it); a last '*' with no argument after it is refused by FunctionSchema.parse,
// which prints the schema back (without the '*': it writes one only before
// keyword-only arguments) and asserts the text is the same (c10 takes it).
void check_single_star(std::string_view text) {
  const size_t open = text.find('('), arrow = text.rfind(") -> ");
  if (open == std::string_view::npos || arrow == std::string_view::npos || arrow < open) return;
  int stars = 0;
  const auto arguments = split_top_level(text.substr(open + 1, arrow - open - 1));
  for (std::string_view arg : arguments)
    if (arg == "*" && ++stars > 1) throw std::invalid_argument("kwarg-only specifier * can only occur once");
  if (!arguments.empty() && arguments.back() == "*")
    throw std::invalid_argument("a '*' with no keyword-only argument after it: torchgen prints the schema back "
                                "without it and asserts the text is the same");
}

// torchgen's Return.parse splits a return at its last space (type, name): an
// unnamed return whose annotation holds one (`Tensor(a -> *)[]`, written as an
// argument's) leaves the type `Tensor(a ->` (c10 takes it).
void check_return_annotation(const SchemaArgument& r) {
  const size_t space = r.alias.rfind(' ');
  if (r.name.empty() && space != std::string::npos)
    throw std::invalid_argument("unrecognized type Tensor(" + r.alias.substr(0, space) + " (torchgen splits an "
                                "unnamed return at its last space; a return's annotation is `Tensor(a)`)");
}

bool is_named(const SchemaType& type, std::string_view name) {
  return type.kind == SchemaType::Kind::Named && type.name == name;
}

bool is_dunder(std::string_view op) {
  return op.size() > 4 && op.substr(0, 2) == "__" && op.substr(op.size() - 2) == "__";
}

// `__iand__`, `add_`: without building the BaseOperatorName (schema_kind is hot).
bool is_inplace_name(std::string_view op) {
  if (!is_dunder(op)) return !op.empty() && op.back() == '_';
  const std::string_view inner = op.substr(2, op.size() - 4);
  for (std::string_view a : k_augmented)
    if (inner.size() == a.size() + 1 && inner.front() == 'i' && inner.substr(1) == a) return true;
  return false;
}

// api/cpp.py default_expr: an unsized list's default must be `[...]` (or
// None for an optional list); a sized one (int[2] pad=1) may be a scalar, and
// a SymInt list a plain number.
void check_list_defaults(std::string_view text) {
  const size_t open = text.find('('), arrow = text.rfind(") -> ");
  if (open == std::string_view::npos || arrow == std::string_view::npos || arrow < open) return;
  // torchgen's Arguments.parse splits on ", " exactly: `float[] w=[1.0, 2.0]`
  // leaves a piece "2.0]" that is no argument (PyTorch writes lists as [0,1]).
  const std::string_view all = text.substr(open + 1, arrow - open - 1);
  for (size_t start = 0; !all.empty();) {
    const size_t end = all.find(", ", start);
    const std::string_view piece = all.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
    if (piece != "*" && piece.find(' ') == std::string_view::npos)
      throw std::invalid_argument("illegal argument '" + std::string(piece) + "'");
    if (end == std::string_view::npos) break;
    start = end + 2;
  }
  for (std::string_view arg : split_top_level(text.substr(open + 1, arrow - open - 1))) {
    const size_t space = arg.find(' '), eq = arg.find('=');
    if (space == std::string_view::npos || eq == std::string_view::npos || eq < space) continue;
    std::string_view type = arg.substr(0, space);
    if (const size_t alias = type.find('('); alias != std::string_view::npos) continue;  // Tensor lists
    const bool optional = type.ends_with("?");
    if (optional) type.remove_suffix(1);
    if (!type.ends_with("[]")) continue;
    const std::string_view value = arg.substr(eq + 1);
    const bool digits = !value.empty() && value.find_first_not_of("0123456789") == std::string_view::npos;
    if (value.starts_with("[") || (optional && value == "None") || (digits && type == "SymInt[]")) continue;
    throw ListDefaultError("Expected a list default '[...]' but found: '" + std::string(value) + "'");
  }
}

}  // namespace

std::string_view unqualified_name(const FunctionSchema& s) {
  return without_namespace(s.name);
}

std::string BaseOperatorName::to_string() const {
  if (dunder) return "__" + std::string(inplace ? "i" : "") + base + "__";
  return base + (inplace ? "_" : functional_overload ? "_functional" : "");
}

BaseOperatorName parse_base_operator_name(std::string_view op) {
  BaseOperatorName name;
  if (is_dunder(op)) {
    name.dunder = true;
    name.inplace = is_inplace_name(op);
    std::string_view inner = op.substr(2, op.size() - 4);
    name.base = std::string(name.inplace ? inner.substr(1) : inner);
    return name;
  }
  if (!op.empty() && op.back() == '_') {
    name.inplace = true;
    op.remove_suffix(1);
  }
  constexpr std::string_view suffix = "_functional";
  if (!name.inplace && op.size() > suffix.size() && op.substr(op.size() - suffix.size()) == suffix) {
    name.functional_overload = true;
    op.remove_suffix(suffix.size());
  }
  name.base = std::string(op);
  return name;
}

FunctionSchema parse_torchgen_schema(std::string_view text) {
  check_list_defaults(text);
  // torchgen never sees type variables, so none are taken.
  auto parsed = dispatchctl::parse_function_schema(text);
  if (const auto* error = std::get_if<SchemaError>(&parsed))
    throw std::invalid_argument(error->message + " (schema column " + std::to_string(error->offset + 1) + ")" +
                                (error->fix.empty() ? "" : "; " + error->fix));
  FunctionSchema schema = std::move(std::get<FunctionSchema>(parsed));
  if (schema.is_vararg || schema.is_varret) throw std::invalid_argument("torchgen takes no '...' in a schema");
  check_single_star(text);
  schema.name = qualified_name(schema.name);
  bool in_out = false;
  for (const auto& a : schema.arguments) {
    check_torchgen_type(a.type);
    check_torchgen_alias(a.type, a.alias);
    if (a.kwarg_only && a.is_write()) in_out = true;
    if (in_out && !a.is_write())
      throw std::invalid_argument("argument '" + a.name + "' follows an out= argument but is not mutable");
  }
  for (const auto& r : schema.returns) {
    check_return_annotation(r);
    check_torchgen_type(r.type);
    check_torchgen_alias(r.type, r.alias);
  }
  return schema;
}

BaseOperatorName base_name(const FunctionSchema& s) { return parse_base_operator_name(unqualified_name(s)); }

void set_base_name(FunctionSchema& s, const BaseOperatorName& name) {
  const size_t ns = s.name.find("::");
  s.name = (ns == std::string::npos ? "" : s.name.substr(0, ns + 2)) + name.to_string();
}

std::string op_name(const FunctionSchema& s) {
  return std::string(unqualified_name(s)) + (s.overload_name.empty() ? "" : "." + s.overload_name);
}

bool is_out_argument(const SchemaArgument& a) { return a.kwarg_only && a.is_write(); }

bool is_out_fn(const FunctionSchema& s) {
  for (const auto& a : s.arguments)
    if (is_out_argument(a)) return true;
  return false;
}

bool is_tensor_like(const SchemaType& type) {
  const SchemaType* base = &type;
  while (!base->contained.empty()) base = &base->contained[0];
  return is_named(*base, "Tensor");
}

const SchemaArgument* self_argument(const FunctionSchema& s) {
  for (const auto& a : s.arguments)
    if (!a.kwarg_only && a.name == "self") return &a;
  return nullptr;
}

std::vector<const SchemaArgument*> post_self_positional(const FunctionSchema& s) {
  std::vector<const SchemaArgument*> out;
  bool after_self = self_argument(s) == nullptr;
  for (const auto& a : s.arguments) {
    if (a.kwarg_only) break;
    if (after_self) out.push_back(&a);
    if (a.name == "self") after_self = true;
  }
  return out;
}

SchemaKind schema_kind(const FunctionSchema& s) {
  if (is_inplace_name(unqualified_name(s))) return SchemaKind::Inplace;
  bool scratch = false;
  for (const auto& a : s.arguments)
    if (is_out_argument(a) && a.name.rfind("_scratch_", 0) == 0) scratch = true;
  if (scratch) return SchemaKind::Scratch;
  if (is_out_fn(s)) return SchemaKind::Out;
  for (const SchemaArgument* a : post_self_positional(s))
    if (a->is_write()) return SchemaKind::Mutable;
  return SchemaKind::Functional;
}

int tensor_options_start(const FunctionSchema& s) {
  static constexpr std::string_view names[] = {"dtype", "layout", "device", "pin_memory"};
  static constexpr std::string_view types[] = {"ScalarType", "Layout", "Device", "bool"};
  const auto& arguments = s.arguments;
  for (size_t i = 0; i + 4 <= arguments.size(); ++i) {
    bool match = true;
    for (size_t j = 0; j < 4 && match; ++j) {
      const auto& a = arguments[i + j];
      const bool optional = a.type.kind == SchemaType::Kind::Optional;
      match = a.kwarg_only && !is_out_argument(a) && a.name == names[j] &&
              is_named(optional ? a.type.contained[0] : a.type, types[j]);
    }
    if (match) return static_cast<int>(i);
  }
  return -1;
}

bool has_tensor_options(const FunctionSchema& s) { return tensor_options_start(s) >= 0; }

}  // namespace dispatchctl::torchgen
