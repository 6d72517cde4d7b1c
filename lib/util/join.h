// Items as one line of text, "CPU, CUDA, Meta": the lists that error messages
// and reports name (the known values, the keys of a set).
#pragma once

#include <functional>
#include <string>
#include <string_view>

namespace dispatchctl {

// `text_of` turns an item into text (a Key into its name); items that are
// text already need none.
template <typename Items, typename TextOf = std::identity>
std::string join(const Items& items, std::string_view separator = ", ", TextOf text_of = {}) {
  std::string out;
  bool first = true;
  for (const auto& item : items) {
    if (!first) out += separator;
    first = false;
    out += text_of(item);
  }
  return out;
}

}  // namespace dispatchctl
