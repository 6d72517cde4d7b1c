#include "diff/diff.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <tuple>

#include "diff/touching.h"
#include "registry/op_select.h"
#include "util/errors.h"
#include "util/log.h"
#include "util/suggest.h"

namespace dispatchctl {

namespace {

// Past a location at `i` in a debug text (":1234" line number, "_3" shard of a
// generated file such as RegisterCPU_3.cpp); `i` itself when there is none.
size_t skip_location(std::string_view debug, size_t i) {
  const char c = debug[i];
  if ((c != ':' && c != '_') || i + 1 == debug.size() || !std::isdigit(static_cast<unsigned char>(debug[i + 1])))
    return i;
  size_t end = i + 1;
  while (end < debug.size() && std::isdigit(static_cast<unsigned char>(debug[end]))) ++end;
  if (end == i + 1) return i;
  if (c == ':' && (end == debug.size() || !std::isalnum(static_cast<unsigned char>(debug[end])))) return end;
  if (c == '_' && debug.substr(end, 4) == ".cpp") return end;
  return i;
}

}  // namespace

std::string kernel_identity(std::string_view debug, bool locations) {
  if (locations) return std::string(debug);
  std::string out;
  out.reserve(debug.size());
  for (size_t i = 0; i < debug.size();) {
    const size_t next = skip_location(debug, i);
    if (next != i) {
      i = next;
      continue;
    }
    out += debug[i++];
  }
  return out;
}

// kernel_identity(x, false) == kernel_identity(y, false), without allocating:
// a release diff compares close to a million rows.
// Only ':' and '_' can start a location: other characters are compared
// without the call (a release diff makes ~26 M of them otherwise).
static bool same_identity(std::string_view x, std::string_view y) {
  auto may_start = [](char c) { return c == ':' || c == '_'; };
  size_t i = 0, j = 0;
  while (true) {
    for (size_t n; i < x.size() && may_start(x[i]) && (n = skip_location(x, i)) != i;) i = n;
    for (size_t n; j < y.size() && may_start(y[j]) && (n = skip_location(y, j)) != j;) j = n;
    if (i == x.size() || j == y.size()) return i == x.size() && j == y.size();
    if (x[i++] != y[j++]) return false;
  }
}

RowShape row_shape(const Catalogue& cat, const Row& row) {
  if (!row.valid()) return {};
  RowShape s;
  s.rule = row.rule;
  if (row.rule != Rule::AmbiguousAutogradOther && alias_of_rule(row.rule)) s.provider = cat.name(row.provider);
  s.language = row_language(row);
  return s;
}

DiffResult::Counts DiffResult::counts() const {
  Counts c;
  for (const auto& fb : fallbacks)
    ++(fb.change == FallbackChange::Change::Added     ? c.fallbacks_added
       : fb.change == FallbackChange::Change::Removed ? c.fallbacks_removed
                                                      : c.fallbacks_changed);
  for (const auto& op : operators) {
    if (op.change == OperatorDiff::Change::Added) ++c.operators_added;
    else if (op.change == OperatorDiff::Change::Removed) ++c.operators_removed;
    else ++c.operators_changed;
    // An added or removed operator's rows (--key) say what it does; no row of it changed.
    if (op.change == OperatorDiff::Change::Changed) c.rows_changed += op.rows.size();
    for (const auto& r : op.registrations) ++(r.added ? c.registrations_added : c.registrations_removed);
  }
  return c;
}

std::vector<KeyTransition> DiffResult::transitions() const {
  const Catalogue& cat = new_registry->catalogue();
  std::map<std::tuple<std::string, Rule, KernelLanguage, Rule, KernelLanguage>, size_t> counts;
  for (const auto& op : operators)
    for (const auto& g : op.change == OperatorDiff::Change::Changed ? op.groups : std::vector<ChangeGroup>{})
      for (size_t i : g.rows)
        ++counts[{op.rows[i].key, g.before.rule, g.before.language, g.after.rule, g.after.language}];
  std::vector<KeyTransition> out;
  for (const auto& [id, n] : counts) {
    const auto& [key, br, bl, ar, al] = id;
    out.push_back({key, {br, "", bl}, {ar, "", al}, n});
  }
  std::map<std::string_view, size_t> order;
  for (Key k : cat.runtime_keys()) order.emplace(cat.name(k), order.size());
  auto position = [&](const std::string& name) {
    auto it = order.find(name);
    return it == order.end() ? order.size() : it->second;
  };
  std::stable_sort(out.begin(), out.end(), [&](const KeyTransition& a, const KeyTransition& b) {
    const size_t pa = position(a.key), pb = position(b.key);
    return pa != pb ? pa < pb : a.rows > b.rows;
  });
  return out;
}

namespace {

// Two registrations (or rows) are the same kernel when these agree.
using RegistrationIdentity = std::tuple<std::string, std::string, bool>;

std::optional<Key> runtime_key(const Catalogue& cat, const std::string& name) {
  auto k = cat.find(name);
  if (k && cat.is_runtime(*k)) return k;
  return std::nullopt;
}

bool fallback_or_missing(const Row& row) { return !row.valid() || row.rule == Rule::BackendFallback; }

class Differ {
 public:
  Differ(const Registry& old_reg, const Registry& new_reg, const DiffOptions& options)
      : old_(old_reg), new_(new_reg), options_(options), keys_(options.keys.begin(), options.keys.end()),
        old_follower_(old_reg, computed_row_of(old_reg)), new_follower_(new_reg, computed_row_of(new_reg)) {
    validate_keys();
    validate_ops();
    pair_keys();
    if (!options.touching.empty()) touching_ = touching_operators(old_reg, new_reg, options.touching, options.keys);
    list_fallback_rows_ = !options.op_patterns.empty() || !options.keys.empty() || !options.touching.empty();
  }

  DiffResult run() {
    DiffResult result;
    result.old_registry = &old_;
    result.new_registry = &new_;
    result.keys_only_old = keys_only_old_;
    result.keys_only_new = keys_only_new_;
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
      const bool same_regs = a && b && same_release && identical_registrations(*a, *b);
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
      if (a && b) diff_rows(*a, *b, same_regs, d);
      else if (!keys_.empty()) one_side_rows(a, b, d);
      group_rows(d);
      const bool whole_op = d.change != OperatorDiff::Change::Changed && (keys_.empty() || !d.registrations.empty());
      if (whole_op || !d.rows.empty() || !d.registrations.empty() || d.schema_before || d.schema_after)
        result.operators.push_back(std::move(d));
    }
    for (auto& fb : result.fallbacks) fb.operators_affected = fallback_rows_[fb.key];
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

  // The keys both releases have are compared (old table order, by name);
  // the others are listed once.
  void pair_keys() {
    const Catalogue& oc = old_.catalogue();
    const Catalogue& nc = new_.catalogue();
    for (size_t i = 0; i < oc.runtime_keys().size(); ++i) {
      const std::string& name = oc.name(oc.runtime_keys()[i]);
      if (!wanted_key(name)) continue;
      auto k = runtime_key(nc, name);
      if (!k) {
        keys_only_old_.push_back(name);
        continue;
      }
      const auto& nk = nc.runtime_keys();
      pairs_.push_back({name, i, static_cast<size_t>(std::find(nk.begin(), nk.end(), *k) - nk.begin())});
    }
    for (Key k : nc.runtime_keys())
      if (wanted_key(nc.name(k)) && !runtime_key(oc, nc.name(k))) keys_only_new_.push_back(nc.name(k));
  }

  bool wanted_op(const std::string& name) const {
    if (!options_.touching.empty() && !touching_.count(name)) return false;
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

  std::string identity_text(std::string_view debug) const { return kernel_identity(debug, options_.locations); }

  // 1.13 names every Python registration's file "/dev/null": such a kernel
  // cannot be told apart from any other Python kernel, so it matches one.
  static bool unknown_python_match(std::string_view x, std::string_view y) {
    auto unknown = [](std::string_view d) { return d.find("registered at /dev/null") != std::string_view::npos; };
    auto python = [](std::string_view d) { return kernel_language(d) == KernelLanguage::Python; };
    return (unknown(x) && python(y)) || (unknown(y) && python(x));
  }

  bool same_kernel_text(std::string_view x, std::string_view y) const {
    if (x == y) return true;
    return !options_.locations && (same_identity(x, y) || unknown_python_match(x, y));
  }

  RegistrationIdentity identity(const Catalogue& cat, const Kernel& k) const {
    return {cat.name(k.key), identity_text(k.debug), k.fallthrough};
  }

  static bool identical_registrations(const Operator& x, const Operator& y) {
    if (x.registrations.size() != y.registrations.size()) return false;
    for (size_t i = 0; i < x.registrations.size(); ++i) {
      const Kernel &p = x.registrations[i], &q = y.registrations[i];
      if (p.key != q.key || p.debug != q.debug || p.fallthrough != q.fallthrough) return false;
    }
    return true;
  }

  bool same_row(const Row& x, const Row& y) const {
    if (x.rule != y.rule) return false;
    if (!x.valid()) return true;
    return x.fallthrough() == y.fallthrough() &&
           old_.catalogue().name(x.provider) == new_.catalogue().name(y.provider) &&
           same_kernel_text(x.debug(), y.debug());
  }

  void diff_fallbacks(DiffResult& result) {
    std::map<std::string, const Fallback*> before, after;
    for (const auto& fb : old_.fallbacks()) before[old_.catalogue().name(fb.key)] = &fb;
    for (const auto& fb : new_.fallbacks()) after[new_.catalogue().name(fb.key)] = &fb;
    std::set<std::string> names;
    for (const auto& [k, _] : before) names.insert(k);
    for (const auto& [k, _] : after) names.insert(k);
    for (const auto& name : names) {
      const Fallback* x = before.count(name) ? before[name] : nullptr;
      const Fallback* y = after.count(name) ? after[name] : nullptr;
      if (x && y && x->fallthrough == y->fallthrough && same_kernel_text(x->debug, y->debug)) continue;
      if (!wanted_key(name)) continue;
      const auto change = !x ? FallbackChange::Change::Added
                          : !y ? FallbackChange::Change::Removed
                               : FallbackChange::Change::Changed;
      result.fallbacks.push_back({change, name, x, y, 0});
      changed_fallbacks_.insert(name);
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
    if (options_.locations) return;
    // A removed and an added registration at the same key that are the same
    // kernel as far as can be told (a Python kernel of unknown file) cancel.
    std::vector<bool> drop(d.registrations.size(), false);
    for (size_t i = 0; i < d.registrations.size(); ++i) {
      const auto& gone = d.registrations[i];
      if (gone.added || drop[i]) continue;
      for (size_t j = 0; j < d.registrations.size(); ++j) {
        const auto& fresh = d.registrations[j];
        if (!fresh.added || drop[j] || fresh.key != gone.key || fresh.kernel->fallthrough != gone.kernel->fallthrough ||
            !unknown_python_match(gone.kernel->debug, fresh.kernel->debug))
          continue;
        drop[i] = drop[j] = true;
        break;
      }
    }
    size_t kept = 0;
    for (size_t i = 0; i < d.registrations.size(); ++i)
      if (!drop[i]) d.registrations[kept++] = d.registrations[i];
    d.registrations.resize(kept);
  }

  void diff_rows(const Operator& a, const Operator& b, bool same_regs, OperatorDiff& d) {
    const auto& old_keys = old_.catalogue().runtime_keys();
    const auto& new_keys = new_.catalogue().runtime_keys();
    for (const auto& pair : pairs_) {
      // With identical registrations only a changed fallback can change a row.
      if (same_regs && !changed_fallbacks_.count(pair.name)) continue;
      const Row before = compute_row(old_, a, old_keys[pair.old_index]);
      const Row after = compute_row(new_, b, new_keys[pair.new_index]);
      if (same_row(before, after)) continue;
      // Nothing of the operator's own is involved: the fallback's change, counted
      // there, and listed per operator only in a filtered (a backend's) view.
      if (fallback_or_missing(before) && fallback_or_missing(after)) {
        ++fallback_rows_[pair.name];
        if (!list_fallback_rows_) continue;
        d.rows.push_back({pair.name, before, after, old_follower_.classify(a, before), new_follower_.classify(b, after), true});
        continue;
      }
      d.rows.push_back({pair.name, before, after, old_follower_.classify(a, before), new_follower_.classify(b, after)});
    }
  }

  // An operator only one side has, at the --key keys: its rows there, the
  // other side's missing (a call of an operator that does not exist fails).
  void one_side_rows(const Operator* a, const Operator* b, OperatorDiff& d) const {
    const auto& old_keys = old_.catalogue().runtime_keys();
    const auto& new_keys = new_.catalogue().runtime_keys();
    for (const auto& pair : pairs_) {
      RowChange change;
      change.key = pair.name;
      if (a) change.before = compute_row(old_, *a, old_keys[pair.old_index]);
      if (b) change.after = compute_row(new_, *b, new_keys[pair.new_index]);
      if (a) change.before_outcome = old_follower_.classify(*a, change.before);
      if (b) change.after_outcome = new_follower_.classify(*b, change.after);
      change.by_fallback = fallback_or_missing(change.before) && fallback_or_missing(change.after);
      d.rows.push_back(std::move(change));
    }
  }

  void group_rows(OperatorDiff& d) const {
    for (size_t i = 0; i < d.rows.size(); ++i) {
      const RowChange& r = d.rows[i];
      ChangeGroup g{row_shape(old_.catalogue(), r.before), row_shape(new_.catalogue(), r.after), {}};
      auto it = std::find_if(d.groups.begin(), d.groups.end(), [&](const ChangeGroup& x) {
        return x.before == g.before && x.after == g.after;
      });
      if (it == d.groups.end()) it = d.groups.insert(d.groups.end(), std::move(g));
      it->rows.push_back(i);
    }
  }

  struct KeyPair {
    std::string name;
    size_t old_index, new_index;  // positions in each release's runtime_keys()
  };

  const Registry& old_;
  const Registry& new_;
  const DiffOptions& options_;
  std::set<std::string> keys_;
  std::vector<KeyPair> pairs_;
  std::vector<std::string> keys_only_old_, keys_only_new_;
  std::set<std::string> changed_fallbacks_;
  std::set<std::string, std::less<>> touching_;
  // One follower per side for every row of the diff: callees shared by many
  // composites are followed once.
  mutable OutcomeFollower old_follower_, new_follower_;
  bool list_fallback_rows_ = false;
  std::map<std::string, size_t> fallback_rows_;
};

}  // namespace

DiffResult diff_registries(const Registry& old_registry, const Registry& new_registry,
                           const DiffOptions& options) {
  PhaseTimer timer("diff");
  return Differ(old_registry, new_registry, options).run();
}

const char* change_name(OperatorDiff::Change change) {
  switch (change) {
    case OperatorDiff::Change::Added: return "added";
    case OperatorDiff::Change::Removed: return "removed";
    case OperatorDiff::Change::Changed: return "changed";
  }
  return "changed";
}

}  // namespace dispatchctl
