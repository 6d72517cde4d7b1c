#include "torchgen/schema.h"

#include <stdexcept>
#include <variant>

#include "registry/schema_parser.h"
#include "registry/signature_check.h"

namespace dispatchctl::torchgen {
namespace {

// torchgen's AUGMENTED_ASSIGNMENT_NAMES: `__iadd__` is the inplace `__add__`.
constexpr std::string_view k_augmented[] = {"add", "sub", "mul",    "div", "mod", "pow",
                                            "lshift", "rshift", "and", "xor", "or"};

// torchgen's spelling of a type the registry parser read: "Tensor?[]",
// "int[2]?" (the size hint belongs to the argument's outermost list). torchgen
// knows base types, optionals and lists only (torchgen/model.py Type.parse).
std::string yaml_type(const dispatchctl::SchemaType& type, std::optional<int> size) {
  using Kind = dispatchctl::SchemaType::Kind;
  switch (type.kind) {
    case Kind::Named: return type.name;
    case Kind::Optional: return yaml_type(type.contained[0], size) + "?";
    case Kind::List:
      return yaml_type(type.contained[0], std::nullopt) + "[" + (size ? std::to_string(*size) : "") + "]";
    default: throw std::invalid_argument("a type torchgen does not have (it takes base types, T? and T[] only)");
  }
}

// torchgen's Annotation.parse: alias sets on Tensor types only, never a bare '!'.
std::string yaml_annotation(const dispatchctl::SchemaType& type, const std::string& alias) {
  if (alias.empty()) return alias;
  const dispatchctl::SchemaType* base = &type;
  while (!base->contained.empty()) base = &base->contained[0];
  if (alias == "!" || base->kind != dispatchctl::SchemaType::Kind::Named || base->name != "Tensor")
    throw std::invalid_argument("malformed alias annotation '" + alias + "' (torchgen takes Tensor(a!) forms only)");
  return alias;
}

// torchgen's Arguments.parse refuses a second '*' (PyTorch's parser takes it).
void check_single_star(std::string_view text) {
  const size_t open = text.find('('), arrow = text.rfind(") -> ");
  if (open == std::string_view::npos || arrow == std::string_view::npos || arrow < open) return;
  int stars = 0;
  for (std::string_view arg : split_top_level(text.substr(open + 1, arrow - open - 1)))
    if (arg == "*" && ++stars > 1) throw std::invalid_argument("kwarg-only specifier * can only occur once");
}

}  // namespace

std::string with_annotation(const std::string& type, const std::string& annotation) {
  if (annotation.empty()) return type;
  return "Tensor(" + annotation + ")" + type.substr(6);
}

bool type_is_tensor_like(std::string_view type) { return type.rfind("Tensor", 0) == 0; }

std::string BaseOperatorName::to_string() const {
  if (dunder) return "__" + std::string(inplace ? "i" : "") + base + "__";
  return base + (inplace ? "_" : functional_overload ? "_functional" : "");
}

BaseOperatorName parse_base_operator_name(std::string_view op) {
  BaseOperatorName name;
  if (op.size() > 4 && op.substr(0, 2) == "__" && op.substr(op.size() - 2) == "__") {
    name.dunder = true;
    std::string_view inner = op.substr(2, op.size() - 4);
    for (std::string_view a : k_augmented)
      if (inner.size() == a.size() + 1 && inner.front() == 'i' && inner.substr(1) == a) name.inplace = true;
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

FunctionSchema parse_function_schema(std::string_view text) {
  // PyTorch's own parser (registry/schema_parser.h) reads the text; this
  // adapts its result to torchgen's model. torchgen's names have no namespace,
  // and torchgen never sees type variables, so none are taken.
  auto parsed = dispatchctl::parse_function_schema(text);
  if (const auto* error = std::get_if<SchemaError>(&parsed))
    throw std::invalid_argument(error->message + " (schema column " + std::to_string(error->offset + 1) + ")" +
                                (error->fix.empty() ? "" : "; " + error->fix));
  const dispatchctl::FunctionSchema& pytorch = std::get<dispatchctl::FunctionSchema>(parsed);
  if (pytorch.is_vararg || pytorch.is_varret) throw std::invalid_argument("torchgen takes no '...' in a schema");
  check_single_star(text);
  FunctionSchema schema;
  std::string_view op = pytorch.name;
  if (const size_t ns = op.find("::"); ns != std::string_view::npos) {
    schema.ns = std::string(op.substr(0, ns));
    op.remove_prefix(ns + 2);
  }
  schema.name = parse_base_operator_name(op);
  schema.overload = pytorch.overload_name;
  bool in_out = false;
  for (const auto& from : pytorch.arguments) {
    SchemaArgument a{yaml_type(from.type, from.size), yaml_annotation(from.type, from.alias), from.name, from.default_value, from.kwarg_only};
    if (a.kwarg_only && a.is_write()) in_out = true;
    a.out = in_out;
    if (in_out && !a.is_write())
      throw std::invalid_argument("argument '" + a.name + "' follows an out= argument but is not mutable");
    schema.arguments.push_back(std::move(a));
  }
  for (const auto& from : pytorch.returns)
    schema.returns.push_back({yaml_type(from.type, from.size), yaml_annotation(from.type, from.alias), from.name});
  return schema;
}

std::string FunctionSchema::op_name() const {
  return name.to_string() + (overload.empty() ? "" : "." + overload);
}

const SchemaArgument* FunctionSchema::self_argument() const {
  for (const auto& a : arguments)
    if (!a.kwarg_only && a.name == "self") return &a;
  return nullptr;
}

std::vector<const SchemaArgument*> FunctionSchema::post_self_positional() const {
  std::vector<const SchemaArgument*> out;
  const bool has_self = self_argument() != nullptr;
  bool after_self = !has_self;
  for (const auto& a : arguments) {
    if (a.kwarg_only) break;
    if (after_self) out.push_back(&a);
    if (a.name == "self") after_self = true;
  }
  return out;
}

bool FunctionSchema::has_out() const {
  for (const auto& a : arguments)
    if (a.out) return true;
  return false;
}

SchemaKind FunctionSchema::kind() const {
  if (name.inplace) return SchemaKind::Inplace;
  bool scratch = false;
  for (const auto& a : arguments)
    if (a.out && a.name.rfind("_scratch_", 0) == 0) scratch = true;
  if (scratch) return SchemaKind::Scratch;
  if (has_out()) return SchemaKind::Out;
  for (const SchemaArgument* a : post_self_positional())
    if (a->is_write()) return SchemaKind::Mutable;
  return SchemaKind::Functional;
}

int FunctionSchema::tensor_options_start() const {
  static constexpr std::string_view names[] = {"dtype", "layout", "device", "pin_memory"};
  static constexpr std::string_view types[] = {"ScalarType", "Layout", "Device", "bool"};
  for (size_t i = 0; i + 4 <= arguments.size(); ++i) {
    bool match = true;
    for (size_t j = 0; j < 4 && match; ++j) {
      const auto& a = arguments[i + j];
      match = a.kwarg_only && !a.out && a.name == names[j] &&
              (a.type == types[j] || a.type == std::string(types[j]) + "?");
    }
    if (match) return static_cast<int>(i);
  }
  return -1;
}

bool FunctionSchema::has_tensor_options() const { return tensor_options_start() >= 0; }

std::string FunctionSchema::print(bool with_namespace, const TypePrinter& type_text,
                                  const DefaultPrinter& default_text) const {
  std::string s = (with_namespace ? full_name() : op_name()) + "(";
  bool star = false, first = true;
  for (const auto& a : arguments) {
    if (!first) s += ", ";
    first = false;
    if (a.kwarg_only && !star) {
      s += "*, ";
      star = true;
    }
    s += with_annotation(type_text(a.type), a.annotation) + " " + a.name;
    if (a.default_value) s += "=" + default_text(a);
  }
  s += ") -> ";
  std::string rets;
  for (size_t i = 0; i < returns.size(); ++i) {
    if (i) rets += ", ";
    rets += with_annotation(type_text(returns[i].type), returns[i].annotation);
    if (!returns[i].name.empty()) rets += " " + returns[i].name;
  }
  return s + (returns.size() == 1 ? rets : "(" + rets + ")");
}

std::string FunctionSchema::to_string() const {
  return print(false, [](const std::string& t) { return t; },
               [](const SchemaArgument& a) { return *a.default_value; });
}

FunctionSchema FunctionSchema::signature(bool strip_default, bool keep_return_names) const {
  FunctionSchema sig;
  sig.ns = ns;
  sig.name.base = name.base;
  sig.name.dunder = name.dunder;
  const int options = tensor_options_start();
  for (size_t i = 0; i < arguments.size(); ++i) {
    const auto& a = arguments[i];
    if (a.out) continue;
    if (options >= 0 && static_cast<int>(i) >= options && static_cast<int>(i) < options + 4) continue;
    SchemaArgument s = a;
    s.annotation.clear();
    if (strip_default) s.default_value.reset();
    sig.arguments.push_back(std::move(s));
  }
  for (const auto& r : returns) sig.returns.push_back({r.type, "", keep_return_names ? r.name : ""});
  // Mutable inputs not already returned become returns: self, out=, then post-self positional.
  std::vector<const SchemaArgument*> mutable_inputs;
  if (const SchemaArgument* self = self_argument()) mutable_inputs.push_back(self);
  for (const auto& a : arguments)
    if (a.out) mutable_inputs.push_back(&a);
  for (const SchemaArgument* a : post_self_positional()) mutable_inputs.push_back(a);
  for (const SchemaArgument* a : mutable_inputs) {
    if (!a->is_write()) continue;
    bool returned = false;
    for (const auto& r : returns) returned = returned || r.annotation == a->annotation;
    if (!returned) sig.returns.push_back({a->type, "", keep_return_names ? a->name + "_out" : ""});
  }
  // Note [bernoulli.p schema]: its out= variant lacks the default.
  if (op_name() == "bernoulli.p")
    for (auto& a : sig.arguments)
      if (a.name == "p" && a.type == "float") a.default_value = "0.5";
  return sig;
}

}  // namespace dispatchctl::torchgen
