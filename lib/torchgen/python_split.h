// Python's str.split(sep), which torchgen uses to read its YAML fields
// (`variants:`, `autogen:` and a schema's arguments on ", ", a ufunc loop's
// dtypes, `precomputed:` declarations on ","): every item exactly as written,
// empty ones included, so "function,method" split on ", " is one item.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace dispatchctl::torchgen {

inline std::vector<std::string> python_split(std::string_view text, std::string_view sep) {
  std::vector<std::string> items;
  for (size_t start = 0;;) {
    const size_t end = text.find(sep, start);
    items.emplace_back(text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start));
    if (end == std::string_view::npos) return items;
    start = end + sep.size();
  }
}

}  // namespace dispatchctl::torchgen
