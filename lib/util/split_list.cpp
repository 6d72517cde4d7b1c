#include "util/split_list.h"

#include "util/errors.h"

namespace dispatchctl {

namespace {
std::string_view trimmed(std::string_view text) {
  const size_t first = text.find_first_not_of(" \t");
  if (first == std::string_view::npos) return {};
  return text.substr(first, text.find_last_not_of(" \t") - first + 1);
}
}  // namespace

std::vector<std::string> split_list(std::string_view list, std::string_view what, char separator,
                                    EmptyItems empty) {
  std::vector<std::string> items;
  size_t number = 1;
  for (size_t start = 0;; ++number) {
    const size_t end = std::min(list.find(separator, start), list.size());
    const std::string_view item = trimmed(list.substr(start, end - start));
    const bool last = end == list.size();
    if (!item.empty()) {
      items.emplace_back(item);
    } else if (empty == EmptyItems::Refuse && (!last || items.empty())) {
      const std::string separated_by =
          separator == ',' ? "single commas, e.g. A,B"
                           : std::string("single '") + separator + "', e.g. A" + separator + "B";
      throw InputError(std::string(what) + ": " +
                       (trimmed(list).empty() ? "empty list" : "item " + std::to_string(number) + " of '" +
                                                                   std::string(list) + "' is empty") +
                       "; give names separated by " + separated_by);
    }
    if (last) break;
    start = end + 1;
  }
  return items;
}

}  // namespace dispatchctl
