#include "live/live_table.h"

#include <algorithm>

namespace dispatchctl {

int LiveTable::slot(Key k) const { return catalogue->table_index(catalogue->bit(k)); }

std::vector<Key> LiveTable::stale_keys() const {
  std::vector<Key> out;
  for (size_t i = 0; i < rows.size(); ++i)
    if (stale[i]) out.push_back(rows[i].key);
  return out;
}

KeySet LiveTable::fallthrough_mask(int backend) const {
  return non_fallthrough[backend == 0 ? 0 : backend - 1];
}

std::vector<Key> LiveTable::available_keys() const {
  std::vector<Key> out;
  for (size_t i = 1; i < rows.size(); ++i)
    if (rows[i].valid()) out.push_back(rows[i].key);
  return out;
}

bool same_kernel(const Row& a, const Row& b) {
  return a.valid() == b.valid() && a.kernel == b.kernel && a.fallback == b.fallback;
}

namespace {

// The registration whose sequence is `sequence`, in a few words.
std::string registration_words(const Registry& registry, const Operator& op, std::int64_t sequence) {
  const Catalogue& cat = registry.catalogue();
  if (sequence < 0) return "the operator's creation";
  for (const Kernel& k : op.registrations)
    if (k.sequence == sequence) return "the " + cat.name(k.key) + " registration (" + k.debug + ")";
  for (const Fallback& f : registry.fallbacks())
    if (f.sequence == sequence) return "the " + cat.name(f.key) + " backend fallback";
  return "registration #" + std::to_string(sequence);
}

}  // namespace

std::string stale_reason(const Registry& registry, const Operator& op, const LiveTable& live, Key k) {
  return "live row last refreshed by " + registration_words(registry, op, live.refreshed_by[live.slot(k)]) +
         "; a later registration changed what this key should run but PyTorch's incremental "
         "update did not refresh it";
}

namespace {

// Replays one operator against a shadow registry that grows registration by
// registration, so compute_row sees exactly what PyTorch saw at each update.
class Replay {
 public:
  Replay(const Registry& registry, const Operator& op)
      : registry_(registry), op_(op), cat_(registry.catalogue()), shadow_(cat_, registry.torch_version()) {
    const auto& keys = cat_.runtime_keys();
    table_.catalogue = &cat_;
    table_.rows.resize(keys.size());
    for (size_t i = 0; i < keys.size(); ++i) table_.rows[i].key = keys[i];
    table_.refreshed_by.assign(keys.size(), -1);
    // makeUninitialized(): every mask starts FULL.
    table_.non_fallthrough.assign(static_cast<size_t>(cat_.backend_count()), cat_.full());
    shadow_.declare(op.name);
    shadow_op_ = shadow_.find(op.name);
  }

  LiveTable run() {
    // Registration order across this operator's kernels and every fallback.
    // Creating the operator entry first (all rows missing) and applying the
    // fallbacks as later registrations gives the same rows as PyTorch's
    // "pick up fallbacks registered before the entry existed".
    struct Event {
      std::uint32_t sequence;
      const Kernel* kernel;
      const Fallback* fallback;
    };
    std::vector<Event> events;
    for (const Kernel& k : op_.registrations) events.push_back({k.sequence, &k, nullptr});
    for (const Fallback& f : registry_.fallbacks()) events.push_back({f.sequence, nullptr, &f});
    std::sort(events.begin(), events.end(),
              [](const Event& a, const Event& b) { return a.sequence < b.sequence; });
    for (const Event& e : events) {
      sequence_ = e.sequence;
      if (e.kernel) {
        shadow_.impl(op_.name, *e.kernel);
        // A catch-all registration refreshes the whole table (updateFull);
        // the registry stores it as CompositeImplicitAutograd, whose update
        // already refreshes every row a registration can leave stale, so the
        // result is the same.
        update_dispatch_table(e.kernel->key);
      } else {
        shadow_.fallback(*e.fallback);
        update_dispatch_table(e.fallback->key);
      }
    }
    table_.computed = compute_table(registry_, op_);
    table_.stale.resize(table_.rows.size());
    for (size_t i = 0; i < table_.rows.size(); ++i)
      table_.stale[i] = !same_kernel(table_.rows[i], table_.computed[i]);
    return std::move(table_);
  }

 private:
  // OperatorEntry::updateDispatchTable_ (§3.3).
  void update_dispatch_table(Key k) {
    if (k == k_undefined) {
      update_entry(k_undefined);
      return;
    }
    for (Key r : cat_.iterate(cat_.runtime_set_of(k))) update_entry(r);
    const auto alias = cat_.alias_of(k);
    if (alias && (*alias == Alias::CompositeImplicitAutograd ||
                  *alias == Alias::CompositeExplicitAutograd ||
                  *alias == Alias::CompositeExplicitAutogradNonFunctional))
      update_entry(k_undefined);
    // A building block (Dense, Sparse …) or FPGA/MkldnnCPU has no backend
    // component: it refreshes only AutogradOther (§9).
    if (cat_.is_backend_dispatch_key(k)) update_entry(cat_.autograd_key_from_backend(cat_.backend_of(k)));
  }

  // updateDispatchTableEntry_ + setOperatorHasFallthroughForKey.
  void update_entry(Key r) {
    const int slot = table_.slot(r);
    Row row = compute_row(shadow_, *shadow_op_, r);
    if (row.kernel && row.kernel != &ambiguous_autogradother_kernel())
      row.kernel = &op_.registrations[static_cast<size_t>(row.kernel - shadow_op_->registrations.data())];
    if (row.fallback) row.fallback = registry_.fallback_for(row.fallback->key);
    table_.rows[slot] = row;
    table_.refreshed_by[slot] = sequence_;

    const std::uint64_t functionality_bit = cat_.bit(r).repr & ~cat_.full_backend_mask().repr;
    const bool fallthrough = row.valid() && row.fallthrough();
    auto apply = [&](KeySet& mask) {
      if (fallthrough) mask.repr &= ~functionality_bit;
      else mask = mask | cat_.bit(r);
    };
    if (cat_.kind(r) == KeyKind::PerBackendRuntime) apply(table_.non_fallthrough[cat_.backend_of(r) - 1]);
    else for (KeySet& mask : table_.non_fallthrough) apply(mask);
  }

  const Registry& registry_;
  const Operator& op_;
  const Catalogue& cat_;
  Registry shadow_;
  const Operator* shadow_op_ = nullptr;
  LiveTable table_;
  std::int64_t sequence_ = -1;
};

}  // namespace

LiveTable replay_live_table(const Registry& registry, const Operator& op) {
  return Replay(registry, op).run();
}

}  // namespace dispatchctl
