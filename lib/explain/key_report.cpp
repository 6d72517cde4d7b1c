#include "explain/key_report.h"

#include <algorithm>
#include <cctype>

#include "table/outcome.h"
#include "util/errors.h"
#include "util/join.h"
#include "util/suggest.h"
#include "util/typed_name.h"

namespace dispatchctl {

namespace {

constexpr Alias k_alias_order[] = {
    Alias::CompositeExplicitAutogradNonFunctional, Alias::CompositeExplicitAutograd,
    Alias::CompositeImplicitAutogradNestedTensor, Alias::CompositeImplicitAutograd};

// "CEANF" for CompositeExplicitAutogradNonFunctional: the capitals of a name.
std::string initials(std::string_view name) {
  std::string out;
  for (char c : name)
    if (std::isupper(static_cast<unsigned char>(c))) out += c;
  return out;
}

std::vector<OutcomeGroup> runtime_groups(const Catalogue& cat, Key k) {
  std::vector<OutcomeGroup> groups;
  groups.push_back({"kernel", "kernel (registered directly at " + cat.name(k) + ")", false, {}});
  for (Alias a : k_alias_order) {
    if (!cat.alias(a)) continue;
    const std::string name = cat.name(*cat.alias(a));
    const Rule rule = a == Alias::CompositeImplicitAutograd ? Rule::CompositeImplicitAutograd
                      : a == Alias::CompositeImplicitAutogradNestedTensor
                          ? Rule::CompositeImplicitAutogradNestedTensor
                          : Rule::CompositeExplicitAutograd;
    groups.push_back({name, std::string(tag_text(rule)) + " (via " + name + ")", false, {}});
  }
  groups.push_back({"ambiguous", "ambiguous autogradother (a call raises)", true, {}});
  groups.push_back({"Autograd", "autograd kernel (via Autograd)", false, {}});
  if (cat.alias(Alias::FuncTorchBatchedDecomposition))
    groups.push_back({"FuncTorchBatchedDecomposition", "batched kernel (via FuncTorchBatchedDecomposition)",
                      false, {}});
  groups.push_back({"fallback", "backend fallback", false, {}});
  groups.push_back({"fallthrough", "backend fallback, a fallthrough (a call skips " + cat.name(k) + ")",
                    false, {}});
  groups.push_back({"missing", "missing (a call raises: no kernel)", true, {}});
  return groups;
}

std::string group_of(const Catalogue& cat, const Row& row) {
  switch (row.rule) {
    case Rule::Direct: return "kernel";
    case Rule::AmbiguousAutogradOther: return "ambiguous";
    case Rule::BackendFallback: return row.fallthrough() ? "fallthrough" : "fallback";
    case Rule::Missing: return "missing";
    default: return cat.name(*cat.alias(*alias_of_rule(row.rule)));
  }
}

std::vector<OutcomeGroup> alias_groups(const Catalogue& cat, Key k, std::size_t covered) {
  const std::string name = cat.name(k);
  return {{"fills_all", "registered, fills all " + std::to_string(covered) + " rows it covers", false, {}},
          {"fills_some", "registered, fills some of its rows (earlier rules or blockers take the rest)",
           false, {}},
          {"fills_none", "registered, but fills no row (earlier rules or blockers take them all)", false, {}},
          {"unregistered", "no kernel registered at " + name, false, {}}};
}

void fill_runtime(const Registry& registry, Key k, const std::vector<const Operator*>& ops, KeyReport& r) {
  const Catalogue& cat = registry.catalogue();
  const auto& keys = cat.runtime_keys();
  const auto at = std::find(keys.begin(), keys.end(), k) - keys.begin();
  r.table_index = static_cast<int>(at);
  r.table_size = static_cast<int>(keys.size());
  if (at > 0) r.lower = keys[at - 1], r.has_lower = true;
  if (at + 1 < static_cast<long>(keys.size())) r.higher = keys[at + 1], r.has_higher = true;
  r.functionality = k == k_undefined ? k_undefined : cat.functionality_of(k);
  r.backend = cat.backend_of(k);
  r.covering_aliases = cat.aliases_covering(k);
  r.fallback = registry.fallback_for(k);
  if (r.fallback) r.fallback_does = fallback_does(cat, k, *r.fallback);
  r.autograd_backends = cat.iterate(cat.backend_set_from_autograd(k));
  r.python_parseable = cat.python_parseable(cat.name(k));
  r.groups = runtime_groups(cat, k);
  OutcomeFollower follower(registry, computed_row_of(registry));  // one for every operator: a shared memo
  for (const Operator* op : ops) {
    const Row row = compute_row(registry, *op, k);
    ++r.outcomes[static_cast<int>(follower.classify(*op, row).outcome)];
    const std::string id = group_of(cat, row);
    for (auto& g : r.groups)
      if (g.id == id) {
        if (row.rule == Rule::BackendFallback && row_known_to_raise(cat, row)) g.raises = true;
        g.ops.push_back(op);
      }
  }
}

void fill_alias(const Registry& registry, Key k, const std::vector<const Operator*>& ops, KeyReport& r) {
  r.covers = registry.catalogue().alias_runtime_keys(k);
  r.groups = alias_groups(registry.catalogue(), k, r.covers.size());
  for (const Operator* op : ops) {
    std::size_t filled = 0;
    if (op->has(k))
      for (Key rk : r.covers) {
        const Row row = compute_row(registry, *op, rk);
        if (row.provider == k && row.rule != Rule::AmbiguousAutogradOther) ++filled;
      }
    const int g = !op->has(k) ? 3 : filled == r.covers.size() ? 0 : filled > 0 ? 1 : 2;
    r.groups[g].ops.push_back(op);
  }
}

}  // namespace

std::vector<std::string> outcome_group_ids(const Catalogue& cat, Key k) {
  std::vector<std::string> ids;
  for (const auto& g : cat.is_alias(k) ? alias_groups(cat, k, 0) : runtime_groups(cat, k)) ids.push_back(g.id);
  return ids;
}

KeyReport key_report(const Registry& registry, Key k, const std::vector<const Operator*>& ops) {
  const Catalogue& cat = registry.catalogue();
  if (cat.kind(k) == KeyKind::BuildingBlock)
    throw InputError("--key " + cat.name(k) + " is a per-backend building block, not a table row; name one "
                     "of its runtime keys, e.g. '" + cat.name(cat.runtime_key(cat.functionality_of(k), 1)) + "'");
  KeyReport r;
  r.key = k;
  r.alias = cat.is_alias(k);
  r.operator_count = ops.size();
  if (r.alias) fill_alias(registry, k, ops, r);
  else fill_runtime(registry, k, ops, r);
  return r;
}

std::vector<std::string> resolve_group(const Catalogue& cat, Key k, const std::string& name) {
  const auto ids = outcome_group_ids(cat, k);
  const std::string wanted = id_form(name);
  if (wanted == "all") return ids;
  std::vector<std::string> out;
  for (const auto& id : ids)
    if (id_form(id) == wanted || id_form(initials(id)) == wanted) return {id};
  if (!cat.is_alias(k)) {
    // Tag words: "math kernel" -> CompositeImplicitAutograd, "backend fallback" -> both fallback groups.
    for (const auto& id : ids) {
      std::string tag;
      if (id == "kernel") tag = "kernel";
      else if (id == "ambiguous") tag = "ambiguous_autogradother";
      else if (id == "fallback" || id == "fallthrough") tag = "backend_fallback";
      else if (id == "missing") tag = "missing";
      else if (id == "Autograd") tag = "autograd_kernel";
      else if (id == "FuncTorchBatchedDecomposition") tag = "batched_kernel";
      else if (id == "CompositeImplicitAutograd") tag = "math_kernel";
      else if (id == "CompositeImplicitAutogradNestedTensor") tag = "nested_kernel";
      else tag = "default_backend_kernel";
      if (tag == wanted) out.push_back(id);
    }
  }
  if (!out.empty()) return out;
  std::vector<std::string_view> names(ids.begin(), ids.end());
  const std::string list = join(ids);
  std::string hint = did_you_mean(name, names);
  throw InputError("--list: '" + name + "' is not an outcome group of " + cat.name(k) +
                   (hint.empty() ? "; use one of " + list + ", or all" : hint));
}

}  // namespace dispatchctl
