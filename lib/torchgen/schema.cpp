#include "torchgen/schema.h"

#include "registry/signature_check.h"

#include <cctype>
#include <stdexcept>

namespace dispatchctl::torchgen {
namespace {

// torchgen's AUGMENTED_ASSIGNMENT_NAMES: `__iadd__` is the inplace `__add__`.
constexpr std::string_view k_augmented[] = {"add", "sub", "mul",    "div", "mod", "pow",
                                            "lshift", "rshift", "and", "xor", "or"};

std::string_view trim(std::string_view s) {
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  return s;
}

bool is_identifier(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
  return !std::isdigit(static_cast<unsigned char>(s.front()));
}

// torchgen splits at ", "; default lists such as [-2,-1] hold no space, so
// the top-level commas are the same places. Unbalanced text is malformed.
std::vector<std::string_view> split_args(std::string_view s) {
  int depth = 0;
  for (char c : s) depth += (c == '(' || c == '[') - (c == ')' || c == ']');
  if (depth != 0) throw std::invalid_argument("unbalanced brackets in '" + std::string(s) + "'");
  return split_top_level(s);
}

// "Tensor(a!)[]" -> type "Tensor[]", annotation "a!".
void split_annotation(std::string_view text, std::string& type, std::string& annotation) {
  const size_t open = text.find('(');
  if (open == std::string_view::npos) {
    type = std::string(text);
    return;
  }
  const size_t close = text.find(')', open);
  if (close == std::string_view::npos || text.substr(0, open) != "Tensor")
    throw std::invalid_argument("malformed alias annotation in '" + std::string(text) + "'");
  annotation = std::string(text.substr(open + 1, close - open - 1));
  type = std::string(text.substr(0, open)) + std::string(text.substr(close + 1));
}

void check_type(const std::string& type, std::string_view where) {
  std::string_view t = type;
  if (t.empty()) throw std::invalid_argument("missing type in '" + std::string(where) + "'");
  while (!t.empty() && (t.back() == '?' || t.back() == ']')) {
    if (t.back() == '?') {
      t.remove_suffix(1);
      continue;
    }
    const size_t open = t.rfind('[');
    if (open == std::string_view::npos) throw std::invalid_argument("malformed type '" + type + "'");
    for (char c : t.substr(open + 1, t.size() - open - 2))
      if (!std::isdigit(static_cast<unsigned char>(c))) throw std::invalid_argument("malformed type '" + type + "'");
    t = t.substr(0, open);
  }
  if (!is_identifier(t)) throw std::invalid_argument("malformed type '" + type + "' in '" + std::string(where) + "'");
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
  FunctionSchema schema;
  const size_t open = text.find('(');
  const size_t arrow = text.rfind(") -> ");
  if (open == std::string_view::npos || arrow == std::string_view::npos || arrow < open)
    throw std::invalid_argument("expected 'name(args) -> returns'");
  std::string_view name = text.substr(0, open);
  if (const size_t ns = name.find("::"); ns != std::string_view::npos) {
    schema.ns = std::string(name.substr(0, ns));
    name.remove_prefix(ns + 2);
  }
  std::string_view op = name;
  if (const size_t dot = name.find('.'); dot != std::string_view::npos) {
    op = name.substr(0, dot);
    schema.overload = std::string(name.substr(dot + 1));
    if (!is_identifier(schema.overload)) throw std::invalid_argument("malformed overload name '" + schema.overload + "'");
  }
  if (!is_identifier(op)) throw std::invalid_argument("malformed operator name '" + std::string(op) + "'");
  schema.name = parse_base_operator_name(op);

  bool kwarg_only = false, in_out = false;
  for (std::string_view arg : split_args(text.substr(open + 1, arrow - open - 1))) {
    if (arg.empty()) throw std::invalid_argument("empty argument");
    if (arg == "*") {
      if (kwarg_only) throw std::invalid_argument("kwarg-only specifier * can only occur once");
      kwarg_only = true;
      continue;
    }
    SchemaArgument a;
    const size_t space = arg.rfind(' ');
    if (space == std::string_view::npos) throw std::invalid_argument("argument '" + std::string(arg) + "' has no name");
    std::string_view name_default = arg.substr(space + 1);
    std::string_view type_text = arg.substr(0, space);
    // A default may hold a space only inside quotes; rfind then split it.
    if (const size_t eq = arg.find('='); eq != std::string_view::npos && eq < space) {
      const size_t name_space = arg.rfind(' ', eq);
      type_text = arg.substr(0, name_space);
      name_default = arg.substr(name_space + 1);
    }
    if (const size_t eq = name_default.find('='); eq != std::string_view::npos) {
      a.default_value = std::string(name_default.substr(eq + 1));
      name_default = name_default.substr(0, eq);
    }
    a.name = std::string(name_default);
    if (!is_identifier(a.name)) throw std::invalid_argument("malformed argument name in '" + std::string(arg) + "'");
    split_annotation(trim(type_text), a.type, a.annotation);
    check_type(a.type, arg);
    a.kwarg_only = kwarg_only;
    if (kwarg_only && a.is_write()) in_out = true;
    a.out = in_out;
    if (in_out && !a.is_write()) throw std::invalid_argument("argument '" + a.name + "' follows an out= argument but is not mutable");
    schema.arguments.push_back(std::move(a));
  }

  std::string_view rets = trim(text.substr(arrow + 5));
  const bool parenthesised = rets.size() >= 2 && rets.front() == '(' && rets.back() == ')';
  if (parenthesised) rets = rets.substr(1, rets.size() - 2);
  if (!rets.empty()) {
    for (std::string_view r : split_args(rets)) {
      SchemaReturn ret;
      std::string_view type_text = r;
      if (const size_t space = r.rfind(' '); space != std::string_view::npos) {
        ret.name = std::string(r.substr(space + 1));
        type_text = r.substr(0, space);
        if (!is_identifier(ret.name)) throw std::invalid_argument("malformed return '" + std::string(r) + "'");
      }
      split_annotation(type_text, ret.type, ret.annotation);
      check_type(ret.type, r);
      schema.returns.push_back(std::move(ret));
    }
  } else if (!parenthesised) {
    throw std::invalid_argument("missing returns after '->'");
  }
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
