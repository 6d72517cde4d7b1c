#include "table/key_masks.h"

#include "table/catalogue_cache.h"

namespace dispatchctl {
namespace {

// The non-alias keys whose bits `set` holds (superset semantics, §3.1): what
// has_any(set) asks of an operator's registered keys.
KeyBits keys_in(const Catalogue& cat, KeySet set) {
  KeyBits out{};
  if (set.empty()) return out;
  for (Key k = 0; k < cat.key_count(); ++k)
    if (!cat.is_alias(k) && cat.has(set, k)) out[k >> 6] |= 1ull << (k & 63);
  return out;
}

KeyMasks build(const Catalogue& cat) {
  KeyMasks m;
  constexpr Alias order[] = {Alias::CompositeExplicitAutogradNonFunctional, Alias::CompositeExplicitAutograd,
                             Alias::CompositeImplicitAutogradNestedTensor,  Alias::CompositeImplicitAutograd,
                             Alias::Autograd,                               Alias::FuncTorchBatchedDecomposition};
  for (int i = 0; i < 6; ++i) m.aliases[i] = cat.alias(order[i]);
  m.autogradother_keys = keys_in(cat, cat.autogradother_backends());
  // Undefined counts as covered by the rules that fill it in PyTorch (CEA, CEA-NF, CIA).
  constexpr std::uint8_t undefined_covered =
      (1u << KeyMasks::k_ceanf) | (1u << KeyMasks::k_cea) | (1u << KeyMasks::k_cia);
  m.row_of_key.assign(cat.key_count(), -1);
  for (Key k : cat.runtime_keys()) {
    const auto position = static_cast<std::int16_t>(m.rows.size());
    m.row_of_key[k] = position;
    RowMask row;
    row.key = k;
    if (k == k_undefined) {
      row.covered = undefined_covered;
    } else {
      for (int i = 0; i < 6; ++i)
        if (m.aliases[i] && cat.included_in_alias(k, *m.aliases[i])) row.covered |= 1u << i;
    }
    row.autograd_other = k == cat.well_known().autograd_other;
    row.backend_keys = keys_in(cat, cat.backend_set_from_autograd(k));
    for (int i = 0; i < 6; ++i)
      if (row.covered >> i & 1) m.rows_covered[i][position >> 6] |= 1ull << (position & 63);
    m.rows.push_back(row);
  }
  return m;
}

}  // namespace

const KeyMasks& key_masks(const Catalogue& cat) {
  return once_per_catalogue<KeyMasks>(cat, [](const Catalogue& c) { return build(c); });
}

}  // namespace dispatchctl
