#include "registry/op_select.h"

#include <algorithm>
#include <filesystem>
#include <memory>
#include <set>

#include "registry/torch_dump.h"
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

std::string canonical_op_pattern(std::string_view pattern) {
  std::string p(pattern);
  // Python's spellings: torch.ops.aten.add.Tensor, aten.add.Tensor.
  if (p.rfind("torch.ops.", 0) == 0) p.erase(0, 10);
  if (p.find("::") == std::string::npos)
    if (const size_t dot = p.find('.'); dot != std::string::npos && dot > 0) p.replace(dot, 1, "::");
  return p;
}

namespace {
constexpr std::string_view k_default_suffix = ".default";  // Python's name for the unnamed overload

bool names_default_overload(std::string_view p) {
  return !is_glob(p) && p.size() > k_default_suffix.size() &&
         p.substr(p.size() - k_default_suffix.size()) == k_default_suffix;
}

// A canonical pattern with its kind worked out once: a loader asks it
// of every operator a source holds.
class OpPattern {
 public:
  explicit OpPattern(std::string canonical) : text_(std::move(canonical)) {
    glob_ = is_glob(text_);
    default_overload_ = names_default_overload(text_);
    const size_t sep = text_.find("::");
    bare_ = text_.find('.', sep == std::string::npos ? 0 : sep) == std::string::npos;
  }
  // What every name this pattern matches starts with.
  std::string prefix() const {
    if (glob_) return text_.substr(0, text_.find_first_of("*?["));
    if (default_overload_) return text_.substr(0, text_.size() - k_default_suffix.size());
    return text_;
  }
  bool matches(std::string_view op_name) const {
    const std::string_view p = text_;
    if (glob_) return glob_match(p, op_name);
    if (default_overload_) return op_name == p.substr(0, p.size() - k_default_suffix.size());
    if (op_name == p) return true;
    // A bare name covers its overloads: aten::add -> aten::add.Tensor.
    return bare_ && op_name.size() > p.size() && op_name[p.size()] == '.' && op_name.substr(0, p.size()) == p;
  }

 private:
  std::string text_;
  bool glob_ = false, default_overload_ = false, bare_ = false;
};

[[noreturn]] void unknown(const Registry& registry, const std::string& pattern, const std::string& canonical) {
  const std::string of = std::to_string(registry.operators().size()) + " operators of " +
                         (registry.sources.empty() ? std::string("the registry") : registry.sources.back());
  std::error_code ec;
  if (canonical.find("::") == std::string::npos || pattern.find("::") == std::string::npos) {
    if (std::filesystem::exists(pattern, ec))
      throw InputError("'" + pattern + "' is a file in the current directory, not an operator: the shell expanded "
                       "an unquoted '*'; quote the pattern, e.g. '*' or 'aten::add*'");
  }
  std::vector<std::string_view> names;
  std::set<std::string_view> bases;
  for (const auto& op : registry.operators()) {
    names.push_back(op.name);
    bases.insert(std::string_view(op.name).substr(0, op.name.find('.')));
  }
  names.insert(names.end(), bases.begin(), bases.end());
  // A glob: suggest from its literal part ('aten::nonzeor*' -> 'aten::nonzero').
  const std::string literal = canonical.substr(0, canonical.find_first_of("*?["));
  std::string hint = did_you_mean(is_glob(canonical) ? literal : canonical, names);
  if (hint.empty() && canonical.find("::") == std::string::npos)
    hint = "; operator names have a namespace, e.g. 'aten::" + canonical + "'";
  if (is_glob(canonical)) throw InputError("no operator matches '" + pattern + "' in " + of + hint);
  throw InputError("unknown operator '" + pattern + "' in " + of + hint);
}
}  // namespace

bool op_matches(std::string_view pattern, std::string_view op_name) {
  return OpPattern(canonical_op_pattern(pattern)).matches(op_name);
}

std::vector<const Operator*> select_operators(const Registry& registry,
                                              const std::vector<std::string>& patterns) {
  const auto& ops = registry.operators();
  std::vector<bool> chosen(ops.size());
  for (const auto& pattern : patterns) {
    const std::string canonical = canonical_op_pattern(pattern);
    const OpPattern matcher(canonical);
    bool any = false;
    for (size_t i = 0; i < ops.size(); ++i) {
      if (matcher.matches(ops[i].name)) {
        chosen[i] = true;
        any = true;
      }
    }
    if (!any) unknown(registry, pattern, canonical);
  }
  std::vector<const Operator*> out;
  for (size_t i = 0; i < ops.size(); ++i)
    if (chosen[i]) out.push_back(&ops[i]);
  // Registries loaded from PyTorch's dumps are in name order already.
  auto by_name = [](const Operator* a, const Operator* b) { return a->name < b->name; };
  if (!std::is_sorted(out.begin(), out.end(), by_name)) std::sort(out.begin(), out.end(), by_name);
  return out;
}

OperatorPrefixes operators_matching(const std::vector<std::string>& patterns) {
  auto matchers = std::make_shared<std::vector<OpPattern>>();
  for (const auto& p : patterns) matchers->emplace_back(canonical_op_pattern(p));
  OperatorPrefixes wanted;
  for (const auto& m : *matchers) wanted.prefixes.push_back(m.prefix());
  wanted.accepts = [matchers](std::string_view name) {
    for (const auto& m : *matchers)
      if (m.matches(name)) return true;
    return false;
  };
  return wanted;
}

}  // namespace dispatchctl
