#include "explain/fixes.h"

#include <memory>
#include <string_view>

#include "query/predicates.h"

namespace dispatchctl {

namespace {

// The registry PyTorch would have with only this operator and every fallback.
std::unique_ptr<Registry> scratch_registry(const Registry& registry, const Operator& op) {
  auto scratch = std::make_unique<Registry>(registry.catalogue(), registry.torch_version());
  scratch->check_signatures = false;  // the registrations were accepted once already
  for (const Fallback& fb : registry.fallbacks()) scratch->fallback(fb);
  if (op.schema) scratch->define(op.name, *op.schema);
  else scratch->declare(op.name);
  for (const Kernel& kernel : op.registrations) scratch->impl(op.name, kernel);
  return scratch;
}

// The same registration wins for the same reason (what a fix must not change
// on a key that already worked).
bool same_resolution(const Row& a, const Row& b) {
  return a.rule == b.rule && a.provider == b.provider && a.debug() == b.debug() &&
         a.fallthrough() == b.fallthrough();
}

// PrivateUse1..3 are c10's keys for backends outside PyTorch (their
// Autograd, Autocast, Sparse … keys included).
bool out_of_tree_key(const Catalogue& cat, Key k) {
  const int backend = cat.backend_of(k);
  if (backend != 0) return std::string_view(cat.spec().backends[backend - 1]).starts_with("PrivateUse");
  return cat.name(k).find("PrivateUse") != std::string::npos;
}

// PyTorch's own operator: aten's, or defined by the registry a backend is
// layered over (its first source). Its alias-key (composite) kernels are
// PyTorch's to register: a backend adds kernels at its own keys only.
bool pytorch_operator(const Registry& registry, const Operator& op) {
  if (std::string_view(op.name).starts_with("aten::")) return true;
  return op.schema && registry.sources.size() > 1 && op.schema->origin.file() == registry.sources.front();
}

std::vector<Key> candidate_keys(const Catalogue& cat, Key k) {
  if (k != k_undefined) {
    std::vector<Key> keys{k};
    for (Key alias : cat.aliases_covering(k)) keys.push_back(alias);
    return keys;
  }
  // Undefined is in no alias set but takes CEANF, CEA and CIA (§3.2); a
  // registration naming Undefined itself is stored as CIA.
  std::vector<Key> keys;
  for (Alias a : {Alias::CompositeExplicitAutogradNonFunctional, Alias::CompositeExplicitAutograd,
                  Alias::CompositeImplicitAutograd})
    if (auto ak = cat.alias(a)) keys.push_back(*ak);
  return keys;
}

Fix evaluate(const Registry& scratch, const Operator& op, Key k, const std::vector<Row>& before, Fix::Kind kind,
             Key where) {
  Fix fix;
  fix.kind = kind;
  fix.key = where;
  const Operator& fixed = *scratch.find(op.name);
  const auto after = compute_table(scratch, fixed);
  // The one outcome model, what the rows' kernels call followed in the scratch registry.
  OutcomeFollower follower(scratch, [&scratch](const Operator& o, Key key) { return compute_row(scratch, o, key); });
  auto row_works = [&](const Row& row) { return outcome_works(follower.classify(fixed, row).outcome); };
  for (size_t i = 0; i < after.size(); ++i) {
    const bool worked = row_works(before[i]);
    const bool works = row_works(after[i]);
    if (after[i].key == k) {
      fix.fills = works;
      fix.result = after[i].rule;
    } else if (!worked && works) {
      fix.also_fills.push_back(after[i].key);
    } else if (worked && !same_resolution(before[i], after[i])) {
      fix.also_changes.push_back(after[i].key);
    }
  }
  return fix;
}

}  // namespace

std::vector<Fix> find_fixes(const Registry& registry, const Operator& op, Key k,
                            const std::vector<Row>& table) {
  const Catalogue& cat = registry.catalogue();
  std::vector<Fix> fixes;
  std::vector<Key> candidates = candidate_keys(cat, k);
  if (k != k_undefined && out_of_tree_key(cat, k) && pytorch_operator(registry, op)) candidates = {k};
  for (Key candidate : candidates) {
    auto scratch = scratch_registry(registry, op);
    Kernel kernel;
    kernel.key = candidate;
    kernel.debug = "(new kernel)";
    kernel.origin = Origin{"(explain)", {}, 0};
    scratch->impl(op.name, kernel);
    fixes.push_back(evaluate(*scratch, op, k, table, Fix::Kind::Kernel, candidate));
  }
  if (k != k_undefined && !registry.fallback_for(k)) {
    auto scratch = scratch_registry(registry, op);
    Fallback fb;
    fb.key = k;
    fb.debug = "(new fallback)";
    fb.origin = Origin{"(explain)", {}, 0};
    scratch->fallback(fb);
    fixes.push_back(evaluate(*scratch, op, k, table, Fix::Kind::BackendFallback, k));
  }
  return fixes;
}

}  // namespace dispatchctl
