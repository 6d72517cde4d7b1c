// torchgen's text of a schema (FunctionSchema.__str__), its grouping
// signature, and the dispatcher's re-print. The dispatcher does not keep
// torchgen's text: RegisterSchema.cpp hands it to c10's schema parser, and
// `_dispatch_dump` prints the parsed FunctionSchema back
// (docs/torchgen-rules.md O4); print_default and base_type_text are the
// differences.
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "registry/schema_text.h"
#include "torchgen/schema.h"
#include "util/parse_number.h"

namespace dispatchctl::torchgen {
namespace {

std::string print_double(double v) {
  char buf[64];
  if (std::isfinite(v) && v == static_cast<double>(static_cast<long long>(v))) {
    std::snprintf(buf, sizeof buf, "%lld.", static_cast<long long>(v));
    return buf;
  }
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

// c10 ScalarType / MemoryFormat / at::Reduction enum values.
std::optional<int> enum_value(std::string_view base_type, std::string_view text) {
  struct Entry {
    std::string_view type, name;
    int value;
  };
  static constexpr Entry entries[] = {
      {"ScalarType", "byte", 0},   {"ScalarType", "char", 1},    {"ScalarType", "short", 2},
      {"ScalarType", "int", 3},    {"ScalarType", "long", 4},    {"ScalarType", "half", 5},
      {"ScalarType", "float", 6},  {"ScalarType", "double", 7},  {"ScalarType", "bool", 11},
      {"MemoryFormat", "contiguous_format", 0}, {"MemoryFormat", "preserve_format", 1},
      {"MemoryFormat", "channels_last", 2},     {"MemoryFormat", "channels_last_3d", 3},
      {"int", "Mean", 1},          {"int", "Sum", 2},
  };
  for (const auto& e : entries)
    if (e.type == base_type && e.name == text) return e.value;
  return std::nullopt;
}

// 'fro' / "fro" -> "fro" with c10's escapes.
std::string requote(std::string_view text) {
  std::string out = "\"";
  for (size_t i = 1; i + 1 < text.size(); ++i) {
    char c = text[i];
    if (c == '\\' && i + 2 < text.size()) c = text[++i];
    if (c == '"' || c == '\'' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

std::vector<std::string> list_items(std::string_view text) {
  std::vector<std::string> items;
  text = text.substr(1, text.size() - 2);
  size_t start = 0;
  while (start <= text.size() && !text.empty()) {
    size_t comma = text.find(',', start);
    std::string_view item = text.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start);
    while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
    items.emplace_back(item);
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return items;
}

std::string print_default(const std::string& type, const std::string& value) {
  if (value == "None" || value.empty()) return value;
  std::string base = type;
  if (!base.empty() && base.back() == '?') base.pop_back();
  // Fixed-size lists: "int[2]", "SymInt[3]".
  if (const size_t open = base.find('['); open != std::string::npos && base.back() == ']') {
    const std::string element = base.substr(0, open);
    const std::string size_text = base.substr(open + 1, base.size() - open - 2);
    std::vector<std::string> items = value.front() == '[' ? list_items(value) : std::vector<std::string>{};
    if (value.front() != '[') {
      if (size_text.empty()) return value;
      // The size was range-checked by the schema parser.
      const int n = parse_integer<int>(size_text, 0, std::numeric_limits<int>::max()).value_or(0);
      if (element == "int" && n >= 2) return value;
      items.assign(static_cast<size_t>(n), value);
    } else if (element == "int" && parse_integer<int>(size_text, 2, std::numeric_limits<int>::max()) &&
               !items.empty()) {
      bool equal = true;
      for (const auto& i : items) equal = equal && i == items.front();
      if (equal) return items.front();
    }
    std::string out = "[";
    for (size_t i = 0; i < items.size(); ++i) out += (i ? ", " : "") + items[i];
    return out + "]";
  }
  if (base == "str") return value.size() >= 2 ? requote(value) : value;
  if (base == "float" || (base == "Scalar" && value.find_first_of(".e") != std::string::npos))
  {
    double v = 0;
    const auto [stop, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
    return ec == std::errc() && stop == value.data() + value.size() ? print_double(v) : value;
  }
  if (auto e = enum_value(base, value)) return std::to_string(*e);
  return value;
}

// c10 prints DeviceIndex as int, and (in some releases) Dimname as str.
std::string base_type_text(const std::string& name, bool dimname_as_str) {
  if (name == "DeviceIndex") return "int";
  if (dimname_as_str && name == "Dimname") return "str";
  return name;
}

using DefaultText = std::function<std::string(const SchemaArgument&)>;

std::string print(const FunctionSchema& s, bool with_namespace, const BaseNameText& base_name,
                  const DefaultText& default_text) {
  std::string text = (with_namespace ? s.full_name() : op_name(s)) + "(";
  bool star = false, first = true;
  for (const auto& a : s.arguments) {
    if (!first) text += ", ";
    first = false;
    if (a.kwarg_only && !star) {
      text += "*, ";
      star = true;
    }
    text += annotated_type_text(a, base_name) + " " + a.name;
    if (a.default_value) text += "=" + default_text(a);
  }
  text += ") -> ";
  std::string rets;
  for (size_t i = 0; i < s.returns.size(); ++i) {
    if (i) rets += ", ";
    rets += annotated_type_text(s.returns[i], base_name);
    if (!s.returns[i].name.empty()) rets += " " + s.returns[i].name;
  }
  return text + (s.returns.size() == 1 ? rets : "(" + rets + ")");
}

}  // namespace

std::string torchgen_text(const FunctionSchema& s) {
  return print(s, false, {}, [](const SchemaArgument& a) { return *a.default_value; });
}

std::string dispatcher_text(const FunctionSchema& s, bool dimname_as_str) {
  return print(
      s, true, [&](const std::string& name) { return base_type_text(name, dimname_as_str); },
      [](const SchemaArgument& a) { return print_default(type_text(a), *a.default_value); });
}

FunctionSchema signature(const FunctionSchema& s, bool strip_default, bool keep_return_names) {
  FunctionSchema sig;
  const BaseOperatorName name = base_name(s);
  sig.name = s.name;
  set_base_name(sig, {name.base, false, name.dunder, false});
  const int options = tensor_options_start(s);
  for (size_t i = 0; i < s.arguments.size(); ++i) {
    const auto& a = s.arguments[i];
    if (is_out_argument(a)) continue;
    if (options >= 0 && static_cast<int>(i) >= options && static_cast<int>(i) < options + 4) continue;
    SchemaArgument kept = a;
    kept.alias.clear();
    if (strip_default) kept.default_value.reset();
    sig.arguments.push_back(std::move(kept));
  }
  auto returned = [&](const SchemaArgument& from, std::string name_text) {
    SchemaArgument r;
    r.type = from.type;
    r.size = from.size;
    r.name = keep_return_names ? std::move(name_text) : "";
    return r;
  };
  for (const auto& r : s.returns) sig.returns.push_back(returned(r, r.name));
  // Mutable inputs not already returned become returns: self, out=, then post-self positional.
  std::vector<const SchemaArgument*> mutable_inputs;
  if (const SchemaArgument* self = self_argument(s)) mutable_inputs.push_back(self);
  for (const auto& a : s.arguments)
    if (is_out_argument(a)) mutable_inputs.push_back(&a);
  for (const SchemaArgument* a : post_self_positional(s)) mutable_inputs.push_back(a);
  for (const SchemaArgument* a : mutable_inputs) {
    if (!a->is_write()) continue;
    bool is_returned = false;
    for (const auto& r : s.returns) is_returned = is_returned || r.alias == a->alias;
    if (!is_returned) sig.returns.push_back(returned(*a, a->name + "_out"));
  }
  // Note [bernoulli.p schema]: its out= variant lacks the default.
  if (op_name(s) == "bernoulli.p")
    for (auto& a : sig.arguments)
      if (a.name == "p" && type_text(a) == "float") a.default_value = "0.5";
  return sig;
}

FunctionSchema view_signature(const FunctionSchema& s) {
  FunctionSchema sig = signature(s);
  BaseOperatorName name = base_name(sig);
  auto replace_all = [](std::string text, const std::string& from, const std::string& to) {
    for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
      text.replace(at, from.size(), to);
    return text;
  };
  if (name.base.ends_with("_copy"))
    name.base = replace_all(name.base, "_copy", "");
  else if (name.base.ends_with("_scatter"))
    name.base = replace_all(name.base, "scatter", "inverse");
  set_base_name(sig, name);
  return sig;
}

}  // namespace dispatchctl::torchgen
