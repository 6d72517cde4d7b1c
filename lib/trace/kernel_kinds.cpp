#include "trace/kernel_kinds.h"

#include <algorithm>
#include <optional>

namespace dispatchctl {

TlsGuard guard_of(const Catalogue& cat, const FunctionalityKindRow& kind, Key row_key) {
  TlsGuard g;
  if (kind.guard_name.empty()) return g;
  g.name = std::string(kind.guard_name);
  std::string_view names = kind.guard_keys;
  while (!names.empty()) {
    const size_t end = std::min(names.find(' '), names.size());
    const std::string_view word = names.substr(0, end);
    names.remove_prefix(std::min(end + 1, names.size()));
    const std::optional<Key> k = word == "*" ? std::optional<Key>(row_key) : cat.find(word);
    if (!k) continue;
    if (word == "*") g.name += "(" + cat.name(row_key) + ")";
    g.excludes = g.excludes | cat.bit(*k);
    g.keys += (g.keys.empty() ? "" : ", ") + cat.name(*k);
  }
  return g;
}

KeySet redispatch_mask(const Catalogue& cat, const FunctionalityKindRow* kind, Key k) {
  const auto& wk = cat.well_known();
  if (kind && kind->kind == FunctionalityKind::Autograd) return cat.full_after(wk.autograd_other);
  if (kind && kind->kind == FunctionalityKind::AdInplaceOrView) return cat.full_after(wk.ad_inplace_or_view);
  return cat.full_after(k);
}

}  // namespace dispatchctl
