#include "query/completion_names.h"

#include <algorithm>

#include "registry/sources.h"

namespace dispatchctl {

std::vector<std::string> complete_operator_names(const std::vector<std::string>& sources, std::string_view prefix) {
  auto registry = load_registry(sources, [prefix](std::string_view name) { return name.starts_with(prefix); });
  std::vector<std::string> names;
  for (const Operator& op : registry->operators()) {
    if (!op.name.starts_with(prefix)) continue;
    names.push_back(op.name);
    const std::string bare = op.name.substr(0, op.name.find('.', op.name.find("::") + 1));
    if (bare.starts_with(prefix)) names.push_back(bare);
  }
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

std::vector<std::string> complete_key_names(const std::vector<std::string>& sources, std::string_view prefix) {
  auto registry = load_registry(sources, [](std::string_view) { return false; });
  std::vector<std::string> names;
  for (std::string_view name : registry->catalogue().key_names())
    if (name.starts_with(prefix)) names.emplace_back(name);
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

}  // namespace dispatchctl
