#include "query/op_select.h"

#include <algorithm>
#include <set>

#include "registry/sources.h"
#include "util/suggest.h"

namespace dispatchctl {

bool is_glob(std::string_view pattern) {
  return pattern.find_first_of("*?[") != std::string_view::npos;
}

bool glob_match(std::string_view pattern, std::string_view name) {
  // Iterative matcher with single-star backtracking: linear-ish, no recursion.
  size_t p = 0, n = 0, star = std::string_view::npos, star_n = 0;
  while (n < name.size()) {
    if (p < pattern.size() && pattern[p] == '[') {
      const size_t close = pattern.find(']', p + 1);
      if (close != std::string_view::npos) {
        const auto set = pattern.substr(p + 1, close - p - 1);
        const bool negate = !set.empty() && set[0] == '!';
        const bool found = set.substr(negate ? 1 : 0).find(name[n]) != std::string_view::npos;
        if (found != negate) {
          p = close + 1;
          ++n;
          continue;
        }
      }
    } else if (p < pattern.size() && (pattern[p] == '?' || pattern[p] == name[n])) {
      ++p;
      ++n;
      continue;
    } else if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      star_n = n;
      continue;
    }
    if (star == std::string_view::npos) return false;
    p = star + 1;
    n = ++star_n;
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

bool op_matches(std::string_view pattern, std::string_view op_name) {
  if (is_glob(pattern)) return glob_match(pattern, op_name);
  if (op_name == pattern) return true;
  // A bare name covers its overloads: aten::add -> aten::add.Tensor.
  return op_name.size() > pattern.size() && op_name.substr(0, pattern.size()) == pattern &&
         op_name[pattern.size()] == '.' && pattern.find('.') == std::string_view::npos;
}

std::vector<const Operator*> select_operators(const Registry& registry,
                                              const std::vector<std::string>& patterns) {
  std::set<const Operator*> chosen;
  for (const auto& pattern : patterns) {
    bool any = false;
    if (!is_glob(pattern)) {
      if (const Operator* op = registry.find(pattern)) {
        chosen.insert(op);
        continue;
      }
    }
    for (const auto& op : registry.operators()) {
      if (op_matches(pattern, op.name)) {
        chosen.insert(&op);
        any = true;
      }
    }
    if (any || is_glob(pattern)) continue;
    std::vector<std::string_view> names;
    std::set<std::string_view> bases;
    for (const auto& op : registry.operators()) {
      names.push_back(op.name);
      bases.insert(std::string_view(op.name).substr(0, op.name.find('.')));
    }
    names.insert(names.end(), bases.begin(), bases.end());
    std::string hint = did_you_mean(pattern, names);
    if (hint.empty() && pattern.find("::") == std::string::npos)
      hint = "; operator names have a namespace, e.g. 'aten::" + pattern + "'";
    throw InputError("unknown operator '" + pattern + "' in " + std::to_string(registry.operators().size()) +
                     " operators of " + (registry.sources.empty() ? std::string("the registry") : registry.sources.back()) + hint);
  }
  std::vector<const Operator*> out(chosen.begin(), chosen.end());
  std::sort(out.begin(), out.end(),
            [](const Operator* a, const Operator* b) { return a->name < b->name; });
  return out;
}

Selection load_and_select(const std::vector<std::string>& sources,
                          const std::vector<std::string>& patterns) {
  auto wanted = [&patterns](std::string_view name) {
    for (const auto& p : patterns)
      if (op_matches(p, name)) return true;
    return false;
  };
  Selection s;
  s.registry = load_registry(sources, wanted);
  try {
    s.operators = select_operators(*s.registry, patterns);
  } catch (const InputError&) {
    // Suggestions need every name: reload whole, and report from there.
    s.registry = load_registry(sources);
    s.operators = select_operators(*s.registry, patterns);
  }
  return s;
}

}  // namespace dispatchctl
