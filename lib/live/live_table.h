// PyTorch's *live* dispatch table of one operator: the table as it stands
// after replaying every registration (kernels of this operator and the
// dispatcher-wide backend fallbacks) in registration order with the
// incremental OperatorEntry::updateDispatchTable_ algorithm
// (docs/dispatch-semantics.md §3.3). Calls use this table; `_dispatch_dump_table`
// prints the recomputed one. Where the two hold different kernels the live
// row is *stale*.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "table/table.h"

namespace dispatchctl {

struct LiveTable {
  const Catalogue* catalogue = nullptr;
  // One entry per table slot, in table order (Undefined first), missing rows included.
  std::vector<Row> rows;      // live: what a call runs
  std::vector<Row> computed;  // recomputed (§3.2): what _dispatch_dump_table prints
  std::vector<bool> stale;    // rows[i] holds another kernel than computed[i]
  // Registration sequence (Kernel/Fallback::sequence) whose update last wrote
  // the slot; -1 when the slot was last written when the operator was created.
  std::vector<std::int64_t> refreshed_by;
  // DispatchKeyExtractor::nonFallthroughKeysPerBackend_, index backend-1:
  // FULL minus the functionality bit of every row whose live kernel is a
  // fallthrough (per-backend rows update only their backend's mask, §5.1).
  std::vector<KeySet> non_fallthrough;

  // Table slot of a runtime key (Undefined = 0).
  int slot(Key k) const;
  const Row& live(Key k) const { return rows[slot(k)]; }
  const Row& recomputed(Key k) const { return computed[slot(k)]; }
  bool is_stale(Key k) const { return stale[slot(k)]; }
  std::vector<Key> stale_keys() const;
  // The fallthrough mask a call uses when `backend` (1-based) is the highest
  // backend bit; 0 (no backend bit) uses the CPU mask (§5.1).
  KeySet fallthrough_mask(int backend) const;
  // listAllDispatchKeys(): runtime keys whose live row is valid, Undefined
  // excluded, table order (what PyTorch's "only available for" lists).
  std::vector<Key> available_keys() const;
};

// Live == computed compares kernels (registration identity), not kernel
// functions as _dispatch_check_invariants does (§9).
bool same_kernel(const Row& a, const Row& b);

// One sentence: which registration last refreshed the live row of k and
// why that leaves it stale.
std::string stale_reason(const Registry& registry, const Operator& op, const LiveTable& live, Key k);

// Replays `op`'s kernels and the registry's fallbacks by `sequence`.
LiveTable replay_live_table(const Registry& registry, const Operator& op);

}  // namespace dispatchctl
