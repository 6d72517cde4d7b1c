#include "diff/diff.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "query/op_select.h"
#include "util/errors.h"
#include "util/suggest.h"

namespace dispatchctl {

DiffResult::Counts DiffResult::counts() const {
  Counts c;
  for (const auto& fb : fallbacks) ++(fb.added ? c.fallbacks_added : c.fallbacks_removed);
  for (const auto& op : operators) {
    if (op.change == OperatorDiff::Change::Added) ++c.operators_added;
    else if (op.change == OperatorDiff::Change::Removed) ++c.operators_removed;
    else ++c.operators_changed;
    c.rows_changed += op.rows.size();
    for (const auto& r : op.registrations) ++(r.added ? c.registrations_added : c.registrations_removed);
  }
  return c;
}

namespace {

// What makes two rows "the same" across registries: the rule, the key the
// registration sits at, and the kernel's identity. Where it was loaded from
// (file, pointer) does not count: a copied manifest is no change.
using RowIdentity = std::tuple<Rule, std::string, std::string_view, bool>;

RowIdentity identity(const Catalogue& cat, const Row& row) {
  if (!row.valid()) return {Rule::Missing, "", {}, false};
  return {row.rule, cat.name(row.provider), row.debug(), row.fallthrough()};
}

// The alias a group names ("CompositeExplicitAutograd"); "" for rules that
// are not an alias's (direct kernel, fallback, ambiguous, missing).
std::string group_provider(const Catalogue& cat, const Row& row) {
  if (!row.valid() || row.rule == Rule::AmbiguousAutogradOther || !alias_of_rule(row.rule)) return "";
  return cat.name(row.provider);
}

using RegistrationIdentity = std::tuple<std::string, std::string_view, bool>;

RegistrationIdentity identity(const Catalogue& cat, const Kernel& k) {
  return {cat.name(k.key), k.debug, k.fallthrough};
}

bool same_registrations(const Registry& a, const Operator& x, const Registry& b, const Operator& y) {
  if (x.registrations.size() != y.registrations.size()) return false;
  for (size_t i = 0; i < x.registrations.size(); ++i)
    if (identity(a.catalogue(), x.registrations[i]) != identity(b.catalogue(), y.registrations[i]))
      return false;
  return true;
}

std::optional<Key> runtime_key(const Catalogue& cat, const std::string& name) {
  auto k = cat.find(name);
  if (k && cat.is_runtime(*k)) return k;
  return std::nullopt;
}

class Differ {
 public:
  Differ(const Registry& old_reg, const Registry& new_reg, const DiffOptions& options)
      : old_(old_reg), new_(new_reg), options_(options), keys_(options.keys.begin(), options.keys.end()) {
    validate_keys();
    validate_ops();
  }

  DiffResult run() {
    DiffResult result;
    result.old_registry = &old_;
    result.new_registry = &new_;
    diff_fallbacks(result);
    const bool same_release = &old_.catalogue() == &new_.catalogue();
    const auto old_ops = old_.sorted_operators();
    const auto new_ops = new_.sorted_operators();
    size_t i = 0, j = 0;
    while (i < old_ops.size() || j < new_ops.size()) {
      const Operator* a = nullptr;
      const Operator* b = nullptr;
      if (j == new_ops.size() || (i < old_ops.size() && old_ops[i]->name < new_ops[j]->name)) a = old_ops[i++];
      else if (i == old_ops.size() || new_ops[j]->name < old_ops[i]->name) b = new_ops[j++];
      else a = old_ops[i++], b = new_ops[j++];
      const std::string& name = a ? a->name : b->name;
      if (!wanted_op(name)) continue;
      OperatorDiff d;
      d.name = name;
      d.change = !a ? OperatorDiff::Change::Added : !b ? OperatorDiff::Change::Removed
                                                      : OperatorDiff::Change::Changed;
      const bool same_regs = a && b && same_release && same_registrations(old_, *a, new_, *b);
      if (!same_regs) diff_registrations(a, b, d);
      const auto schema_of = [](const Operator* op) -> std::optional<std::string> {
        if (op && op->schema) return op->schema->text;
        return std::nullopt;
      };
      if (a && b && schema_of(a) != schema_of(b)) {
        d.schema_before = schema_of(a);
        d.schema_after = schema_of(b);
      }
      // Identical registrations can only differ where a fallback changed (§3.2 step 9).
      if (!same_regs) diff_rows(a, b, all_key_names(), d);
      else if (!changed_fallback_keys_.empty()) diff_rows(a, b, changed_fallback_keys_, d);
      group_rows(d);
      const bool whole_op = keys_.empty() && d.change != OperatorDiff::Change::Changed;
      if (whole_op || !d.rows.empty() || !d.registrations.empty() || d.schema_before || d.schema_after)
        result.operators.push_back(std::move(d));
    }
    return result;
  }

 private:
  void validate_keys() const {
    for (const auto& k : options_.keys) {
      if (runtime_key(old_.catalogue(), k) || runtime_key(new_.catalogue(), k)) continue;
      std::vector<std::string_view> names;
      for (Key r : new_.catalogue().runtime_keys()) names.push_back(new_.catalogue().name(r));
      throw InputError("--key '" + k + "' is not a runtime dispatch key of PyTorch " +
                       std::string(new_.catalogue().version()) + did_you_mean(k, names) +
                       " (see 'dispatchctl keys')");
    }
  }

  // A plain name that is in neither registry is a typo: report it like `show`.
  void validate_ops() const {
    for (const auto& p : options_.op_patterns) {
      if (is_glob(p)) continue;
      bool found = false;
      for (const Registry* r : {&old_, &new_})
        for (const auto& op : r->operators()) found = found || op_matches(p, op.name);
      if (!found) (void)select_operators(new_, {p});  // throws with did-you-mean
    }
  }

  bool wanted_op(const std::string& name) const {
    if (options_.op_patterns.empty()) return true;
    for (const auto& p : options_.op_patterns)
      if (op_matches(p, name)) return true;
    return false;
  }

  bool wanted_key(const std::string& name) const { return keys_.empty() || keys_.count(name); }

  // A registration matters for --key K when it sits at K or at an alias or
  // building block whose keys include K.
  bool wanted_registration(const Catalogue& cat, Key reg_key) const {
    if (keys_.empty()) return true;
    for (const auto& name : keys_) {
      auto k = runtime_key(cat, name);
      if (!k) continue;
      if (*k == reg_key || (cat.is_alias(reg_key) && cat.included_in_alias(*k, reg_key)) ||
          (cat.kind(reg_key) == KeyKind::BuildingBlock && cat.functionality_of(*k) == reg_key))
        return true;
    }
    return false;
  }

  void diff_fallbacks(DiffResult& result) {
    std::map<std::string, const Fallback*> before, after;
    for (const auto& fb : old_.fallbacks()) before[old_.catalogue().name(fb.key)] = &fb;
    for (const auto& fb : new_.fallbacks()) after[new_.catalogue().name(fb.key)] = &fb;
    auto same = [](const Fallback* x, const Fallback* y) {
      return x && y && x->debug == y->debug && x->fallthrough == y->fallthrough;
    };
    std::set<std::string> names;
    for (const auto& [k, _] : before) names.insert(k);
    for (const auto& [k, _] : after) names.insert(k);
    for (const auto& name : names) {
      const Fallback* x = before.count(name) ? before[name] : nullptr;
      const Fallback* y = after.count(name) ? after[name] : nullptr;
      if (same(x, y)) continue;
      changed_fallback_keys_.push_back(name);
      if (!wanted_key(name)) continue;
      if (x) result.fallbacks.push_back({false, x, name});
      if (y) result.fallbacks.push_back({true, y, name});
    }
  }

  void diff_registrations(const Operator* a, const Operator* b, OperatorDiff& d) const {
    std::map<RegistrationIdentity, int> in_new;
    if (b)
      for (const auto& k : b->registrations) ++in_new[identity(new_.catalogue(), k)];
    std::map<RegistrationIdentity, int> in_old;
    if (a)
      for (const auto& k : a->registrations) ++in_old[identity(old_.catalogue(), k)];
    if (a)
      for (const auto& k : a->registrations)
        if (--in_new[identity(old_.catalogue(), k)] < 0 && wanted_registration(old_.catalogue(), k.key))
          d.registrations.push_back({false, &k, old_.catalogue().name(k.key)});
    if (b)
      for (const auto& k : b->registrations)
        if (--in_old[identity(new_.catalogue(), k)] < 0 && wanted_registration(new_.catalogue(), k.key))
          d.registrations.push_back({true, &k, new_.catalogue().name(k.key)});
  }

  const std::vector<std::string>& all_key_names() {
    if (all_keys_.empty()) {
      std::set<std::string> seen;
      for (const Registry* r : {&old_, &new_})
        for (Key k : r->catalogue().runtime_keys())
          if (seen.insert(r->catalogue().name(k)).second) all_keys_.push_back(r->catalogue().name(k));
    }
    return all_keys_;
  }

  void diff_rows(const Operator* a, const Operator* b, const std::vector<std::string>& names,
                 OperatorDiff& d) const {
    for (const auto& name : names) {
      if (!wanted_key(name)) continue;
      RowChange change{name, {}, {}};
      if (a)
        if (auto k = runtime_key(old_.catalogue(), name)) change.before = compute_row(old_, *a, *k);
      if (b)
        if (auto k = runtime_key(new_.catalogue(), name)) change.after = compute_row(new_, *b, *k);
      if (identity(old_.catalogue(), change.before) != identity(new_.catalogue(), change.after))
        d.rows.push_back(std::move(change));
    }
  }

  void group_rows(OperatorDiff& d) const {
    for (size_t i = 0; i < d.rows.size(); ++i) {
      const RowChange& r = d.rows[i];
      ChangeGroup g{r.before.rule, group_provider(old_.catalogue(), r.before), r.after.rule,
                    group_provider(new_.catalogue(), r.after), {}};
      auto it = std::find_if(d.groups.begin(), d.groups.end(), [&](const ChangeGroup& x) {
        return x.before_rule == g.before_rule && x.before_provider == g.before_provider &&
               x.after_rule == g.after_rule && x.after_provider == g.after_provider;
      });
      if (it == d.groups.end()) it = d.groups.insert(d.groups.end(), std::move(g));
      it->rows.push_back(i);
    }
  }

  const Registry& old_;
  const Registry& new_;
  const DiffOptions& options_;
  std::set<std::string> keys_;
  std::vector<std::string> changed_fallback_keys_;
  std::vector<std::string> all_keys_;
};

}  // namespace

DiffResult diff_registries(const Registry& old_registry, const Registry& new_registry,
                           const DiffOptions& options) {
  return Differ(old_registry, new_registry, options).run();
}

}  // namespace dispatchctl
