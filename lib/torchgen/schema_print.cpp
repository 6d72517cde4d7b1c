// The dispatcher does not keep torchgen's text: RegisterSchema.cpp hands it
// to c10's schema parser, and `_dispatch_dump` prints the parsed
// FunctionSchema back (docs/torchgen-rules.md O4). These are the differences.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "torchgen/schema.h"

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
      const int n = std::atoi(size_text.c_str());
      if (element == "int" && n >= 2) return value;
      items.assign(n, value);
    } else if (element == "int" && !size_text.empty() && std::atoi(size_text.c_str()) >= 2 && !items.empty()) {
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
    return print_double(std::strtod(value.c_str(), nullptr));
  if (auto e = enum_value(base, value)) return std::to_string(*e);
  return value;
}

std::string print_type(std::string type, bool dimname_as_str) {
  auto replace_base = [&](std::string_view from, std::string_view to) {
    if (type.rfind(from, 0) == 0 &&
        (type.size() == from.size() || type[from.size()] == '?' || type[from.size()] == '['))
      type = std::string(to) + type.substr(from.size());
  };
  replace_base("DeviceIndex", "int");
  if (dimname_as_str) replace_base("Dimname", "str");
  return type;
}


}  // namespace

std::string FunctionSchema::dispatcher_text(bool dimname_as_str) const {
  return print(true, [&](const std::string& t) { return print_type(t, dimname_as_str); },
               [](const SchemaArgument& a) { return print_default(a.type, *a.default_value); });
}

}  // namespace dispatchctl::torchgen
