// no-autograd-kernel, and the alias keys of --require: both ask which
// autograd keys an operator's backend kernels make reachable.
#include <algorithm>
#include <memory>
#include <mutex>
#include <unordered_map>

#include "check/lint.h"
#include "keys/key_summary.h"
#include "table/table.h"

namespace dispatchctl {

namespace {
// What autograd_keys_of_backend_kernels asks of the catalogue, once per catalogue
// (asked per operator, it was most of `check`'s time on a whole registry).
struct AutogradLookup {
  std::vector<std::vector<Key>> alias_runtime_keys;  // by key: for CEA and CEA-NF, else empty
  std::vector<Key> autograd_of;                      // by key: the autograd key of its backend
  std::vector<int> table_index;                      // by key
};

const AutogradLookup& autograd_lookup(const Catalogue& cat) {
  static std::mutex mutex;
  static std::unordered_map<const Catalogue*, std::unique_ptr<AutogradLookup>> built;
  std::lock_guard lock(mutex);
  auto& slot = built[&cat];
  if (slot) return *slot;
  slot = std::make_unique<AutogradLookup>();
  slot->alias_runtime_keys.resize(cat.key_count());
  slot->autograd_of.resize(cat.key_count());
  slot->table_index.resize(cat.key_count());
  for (Key k = 0; k < cat.key_count(); ++k) {
    if (cat.is_alias(k)) {
      const auto a = cat.alias_of(k);
      if (a == Alias::CompositeExplicitAutograd || a == Alias::CompositeExplicitAutogradNonFunctional)
        slot->alias_runtime_keys[k] = cat.alias_runtime_keys(k);
      continue;
    }
    slot->autograd_of[k] = cat.autograd_key_from_backend(cat.backend_of(k));
    slot->table_index[k] = cat.table_index(cat.bit(k));
  }
  return *slot;
}
}  // namespace

std::vector<Key> autograd_keys_of_backend_kernels(const Catalogue& cat, const Operator& op) {
  const AutogradLookup& lookup = autograd_lookup(cat);
  std::vector<Key> out;
  auto add = [&](Key backend_key) {
    const Key autograd = lookup.autograd_of[backend_key];
    if (std::find(out.begin(), out.end(), autograd) == out.end()) out.push_back(autograd);
  };
  for (const auto& kk : op.by_key()) {
    if (cat.is_alias(kk.key)) {
      for (Key k : lookup.alias_runtime_keys[kk.key]) add(k);
    } else if (cat.is_runtime(kk.key) && cat.is_backend_dispatch_key(kk.key)) {
      add(kk.key);
    }
  }
  std::sort(out.begin(), out.end(), [&lookup](Key a, Key b) { return lookup.table_index[a] < lookup.table_index[b]; });
  return out;
}

std::vector<Key> required_keys_for(const Catalogue& cat, const Operator& op, const LintScope& scope) {
  std::vector<Key> keys = scope.required;
  if (scope.required_aliases.empty()) return keys;
  const std::vector<Key> autograd = autograd_keys_of_backend_kernels(cat, op);
  std::vector<int> backends;
  for (Key a : autograd)
    for (int b = 1; b <= cat.backend_count(); ++b)
      if (cat.autograd_key_from_backend(b) == a) backends.push_back(b);
  for (Key alias : scope.required_aliases)
    for (Key k : cat.alias_runtime_keys(alias)) {
      const bool for_backend = std::find(autograd.begin(), autograd.end(), k) != autograd.end() ||
                               (cat.backend_of(k) != 0 &&
                                std::find(backends.begin(), backends.end(), cat.backend_of(k)) != backends.end());
      if (for_backend && std::find(keys.begin(), keys.end(), k) == keys.end()) keys.push_back(k);
    }
  return keys;
}

void lint_no_autograd_kernel(const Registry& registry, const LintScope& scope, std::vector<Finding>& out) {
  const Catalogue& cat = registry.catalogue();
  for (const auto& op : registry.operators()) {
    // Dangling impls and CIA + backend kernels have rules of their own.
    const Key cia = *cat.alias(Alias::CompositeImplicitAutograd);
    if (!op.schema || op.has(cia) || !scope.contains(op) || !scope.registered_by_user(op)) continue;
    std::vector<Key> uncovered;
    std::string consequence;
    for (Key a : autograd_keys_of_backend_kernels(cat, op)) {
      const Row row = compute_row(registry, op, a);
      // Missing rows are another story (a bare manifest has no fallbacks at all).
      if (row.rule != Rule::BackendFallback) continue;
      uncovered.push_back(a);
      if (!consequence.empty()) continue;
      if (row.fallback->fallthrough)
        consequence = "the autograd fallback is a fallthrough: outputs do not require grad, so "
                      "backward finds no path to the inputs";
      else if (!cat.spec().autograd_fallback_backward_warning.empty())
        consequence = "the autograd-not-implemented fallback runs: the forward works, backward warns "
                      "and the gradients are missing";
      else
        consequence = "only the autograd backend fallback runs there";
    }
    if (uncovered.empty()) continue;
    Finding f;
    f.rule = "no-autograd-kernel";
    f.op = op.name;
    const Origin& at = op.schema ? op.schema->origin : op.registrations.front().origin;
    f.location = {std::string(at.file()), at.pointer(), at.line(), 0};
    f.key = cat.name(uncovered.front());
    f.message = op.name + " has backend kernels but no autograd kernel reaches " + summarize_keys(cat, uncovered) +
                ": " + consequence + "; register a kernel at Autograd (or CompositeImplicitAutograd), or a "
                "fallthrough at Autograd if the operator is not differentiable";
    out.push_back(std::move(f));
  }
}

}  // namespace dispatchctl
