#include "table/table.h"

#include <array>
#include <bit>

#include "table/key_masks.h"
#include "util/log.h"

namespace dispatchctl {

std::string_view tag_text(Rule rule) {
  switch (rule) {
    case Rule::Direct: return "kernel";
    case Rule::CompositeExplicitAutogradNonFunctional:
    case Rule::CompositeExplicitAutograd: return "default backend kernel";
    case Rule::CompositeImplicitAutogradNestedTensor: return "nested kernel";
    case Rule::CompositeImplicitAutograd: return "math kernel";
    case Rule::AmbiguousAutogradOther: return "ambiguous autogradother";
    case Rule::Autograd: return "autograd kernel";
    case Rule::FuncTorchBatchedDecomposition: return "batched kernel";
    case Rule::BackendFallback: return "backend fallback";
    case Rule::Missing: return "missing";
  }
  return "missing";
}

std::string_view tag_id(Rule rule) {
  switch (rule) {
    case Rule::Direct: return "kernel";
    case Rule::CompositeExplicitAutogradNonFunctional:
    case Rule::CompositeExplicitAutograd: return "default_backend_kernel";
    case Rule::CompositeImplicitAutogradNestedTensor: return "nested_kernel";
    case Rule::CompositeImplicitAutograd: return "math_kernel";
    case Rule::AmbiguousAutogradOther: return "ambiguous_autogradother";
    case Rule::Autograd: return "autograd_kernel";
    case Rule::FuncTorchBatchedDecomposition: return "batched_kernel";
    case Rule::BackendFallback: return "backend_fallback";
    case Rule::Missing: return "missing";
  }
  return "missing";
}

std::optional<Alias> alias_of_rule(Rule rule) {
  switch (rule) {
    case Rule::CompositeExplicitAutogradNonFunctional:
      return Alias::CompositeExplicitAutogradNonFunctional;
    case Rule::CompositeExplicitAutograd: return Alias::CompositeExplicitAutograd;
    case Rule::CompositeImplicitAutogradNestedTensor:
      return Alias::CompositeImplicitAutogradNestedTensor;
    case Rule::CompositeImplicitAutograd:
    case Rule::AmbiguousAutogradOther: return Alias::CompositeImplicitAutograd;
    case Rule::Autograd: return Alias::Autograd;
    case Rule::FuncTorchBatchedDecomposition: return Alias::FuncTorchBatchedDecomposition;
    default: return std::nullopt;
  }
}

const Kernel& ambiguous_autogradother_kernel() {
  static const Kernel kernel = [] {
    Kernel k;
    k.debug = "ambiguous_autogradother";
    k.origin = Origin{"(PyTorch)", {}, 0};
    return k;
  }();
  return kernel;
}

namespace {

using StepResult = Explanation::StepResult;

// Registered non-alias keys that `set.has()` (superset semantics, §3.1):
// hasAny(set) is "this list is non-empty".
std::vector<Key> registered_keys_in(const Catalogue& cat, const Operator& op, KeySet set) {
  std::vector<Key> out;
  for (const auto& kk : op.by_key())
    if (!cat.is_alias(kk.key) && cat.has(set, kk.key)) out.push_back(kk.key);
  return out;
}

bool has_any(const Catalogue& cat, const Operator& op, KeySet set) {
  if (set.empty()) return false;
  for (const auto& kk : op.by_key())
    if (!cat.is_alias(kk.key) && cat.has(set, kk.key)) return true;
  return false;
}

class RowBuilder {
 public:
  RowBuilder(const Catalogue& cat, const Operator& op, Key k, Explanation* why)
      : cat_(cat), op_(op), k_(k), why_(why) {}

  bool explaining() const { return why_ != nullptr; }
  // The reason is built only when someone asked why (compute_table does not).
  template <typename Reason>
  void note(Rule rule, StepResult outcome, Reason&& reason, std::vector<Key> blockers = {}) {
    if (why_) why_->steps.push_back({rule, outcome, std::string(reason()), std::move(blockers)});
  }

  // Tries an alias rule; true when it fills the row.
  bool try_alias(Rule rule, Alias alias, bool undefined_counts, Row& row) {
    const auto alias_key = cat_.alias(alias);
    if (!alias_key) return false;  // the release has no such alias
    const bool covered = (k_ == k_undefined && undefined_counts) ||
                         (k_ != k_undefined && cat_.included_in_alias(k_, *alias_key));
    const auto& alias_name = cat_.name(*alias_key);
    if (!covered) {
      note(rule, StepResult::NotApplicable, [&] { return cat_.name(k_) + " is not in the " + alias_name + " set"; });
      return false;
    }
    if (!op_.has(*alias_key)) {
      note(rule, StepResult::NoRegistration, [&] { return "no kernel registered at " + alias_name; });
      return false;
    }
    fill(row, rule, *alias_key);
    note(rule, StepResult::Chosen, [&] { return cat_.name(k_) + " is in the " + alias_name + " set"; });
    return true;
  }

  void fill(Row& row, Rule rule, Key provider) {
    row.rule = rule;
    row.provider = provider;
    row.kernel = op_.active(provider);
  }

 private:
  const Catalogue& cat_;
  const Operator& op_;
  Key k_;
  Explanation* why_;
};

// Rule 6 of §3.2: the math kernel unless a backend or CEA kernel keeps it
// away; at AutogradOther, with kernels on autogradother backends too, the
// ambiguous kernel.
bool try_math_kernel(RowBuilder& b, const Catalogue& cat, const Operator& op, Key k, KeySet backends, bool has_cea,
                     Row& row) {
  const Key cia = *cat.alias(Alias::CompositeImplicitAutograd);
  const bool cia_covers = k == k_undefined || cat.included_in_alias(k, cia);
  if (!cia_covers) {
    b.note(Rule::CompositeImplicitAutograd, StepResult::NotApplicable,
           [&] { return cat.name(k) + " is not in the CompositeImplicitAutograd set"; });
    return false;
  }
  if (!op.has(cia)) {
    b.note(Rule::CompositeImplicitAutograd, StepResult::NoRegistration,
           [] { return "no kernel registered at CompositeImplicitAutograd"; });
    return false;
  }
  if (k == cat.well_known().autograd_other && has_any(cat, op, cat.autogradother_backends())) {
    row.rule = Rule::AmbiguousAutogradOther;
    row.provider = cia;
    row.kernel = &ambiguous_autogradother_kernel();
    if (b.explaining())
      b.note(Rule::AmbiguousAutogradOther, StepResult::Chosen,
             [] {
               return "CompositeImplicitAutograd and kernels on autogradother backends both "
                      "apply; PyTorch cannot tell which to use";
             },
             registered_keys_in(cat, op, cat.autogradother_backends()));
    return true;
  }
  if (!has_any(cat, op, backends) && !has_cea) {
    b.fill(row, Rule::CompositeImplicitAutograd, cia);
    b.note(Rule::CompositeImplicitAutograd, StepResult::Chosen, [&] {
      return "no backend kernel for " + cat.format(backends) + " and no CompositeExplicitAutograd kernel";
    });
    return true;
  }
  if (b.explaining()) {
    std::vector<Key> blockers = registered_keys_in(cat, op, backends);
    if (has_cea) blockers.push_back(*cat.alias(Alias::CompositeExplicitAutograd));
    b.note(Rule::CompositeImplicitAutograd, StepResult::Blocked,
           [] { return "a backend kernel exists for this key's backends (or a CompositeExplicitAutograd kernel)"; },
           std::move(blockers));
  }
  return false;
}

}  // namespace

Row compute_row(const Registry& registry, const Operator& op, Key k, Explanation* why) {
  PhaseTimer timer("compute");
  const Catalogue& cat = registry.catalogue();
  RowBuilder b(cat, op, k, why);
  Row row;
  row.key = k;

  // 1. A kernel registered at exactly this key.
  if (op.has(k)) {
    b.fill(row, Rule::Direct, k);
    b.note(Rule::Direct, StepResult::Chosen, [&] { return "registered directly at " + cat.name(k); });
    return row;
  }
  b.note(Rule::Direct, StepResult::NoRegistration, [&] { return "no kernel registered at " + cat.name(k); });

  // 2-3. CompositeExplicitAutograd(NonFunctional): Undefined counts as covered.
  if (b.try_alias(Rule::CompositeExplicitAutogradNonFunctional,
                  Alias::CompositeExplicitAutogradNonFunctional, true, row) ||
      b.try_alias(Rule::CompositeExplicitAutograd, Alias::CompositeExplicitAutograd, true, row))
    return row;

  // 4. A backend kernel for this key's backends, or any CEA kernel at all,
  // keeps the math kernel away (the CEA term applies to every key, §3.2).
  const auto cea = cat.alias(Alias::CompositeExplicitAutograd);
  const KeySet backends = cat.backend_set_from_autograd(k);
  const bool has_cea = cea && op.has(*cea);

  // 5. CompositeImplicitAutogradNestedTensor is never blocked.
  if (k != k_undefined && b.try_alias(Rule::CompositeImplicitAutogradNestedTensor,
                                      Alias::CompositeImplicitAutogradNestedTensor, false, row))
    return row;

  // 6. CompositeImplicitAutograd (math), or the ambiguous kernel at AutogradOther.
  if (try_math_kernel(b, cat, op, k, backends, has_cea, row)) return row;

  // 7-8. Autograd alias, then FuncTorchBatchedDecomposition.
  if (b.try_alias(Rule::Autograd, Alias::Autograd, false, row) ||
      b.try_alias(Rule::FuncTorchBatchedDecomposition, Alias::FuncTorchBatchedDecomposition,
                  false, row))
    return row;

  // 9. The dispatcher-wide backend fallback.
  if (const Fallback* fb = registry.fallback_for(k)) {
    row.rule = Rule::BackendFallback;
    row.fallback = fb;
    row.provider = k;
    b.note(Rule::BackendFallback, StepResult::Chosen, [&] {
      return std::string(fb->fallthrough ? "fallthrough " : "") + "backend fallback for " + cat.name(k);
    });
    return row;
  }
  b.note(Rule::BackendFallback, StepResult::NoRegistration, [&] { return "no backend fallback for " + cat.name(k); });
  b.note(Rule::Missing, StepResult::Chosen, [] { return "nothing applies"; });
  return row;
}

namespace {

// A key's row when none of the operator's registrations reaches it: the
// dispatcher-wide backend fallback, or nothing (§3.2 rule 9).
Row unreached_row(const Registry& registry, Key k) {
  const Fallback* fb = registry.fallback_for(k);
  return Row{k, fb ? Rule::BackendFallback : Rule::Missing, nullptr, fb, fb ? k : k_undefined};
}

template <typename Visit>
void for_each_bit(const KeyBits& bits, Visit&& visit) {
  for (int w = 0; w < 4; ++w)
    for (std::uint64_t word = bits[w]; word; word &= word - 1) visit(w * 64 + std::countr_zero(word));
}

// The same rules as compute_row, with what they test precomputed
// (table/key_masks.h): no Explanation, a few bit operations per row, and only
// on the rows some registration of `op` reaches (a kernel at the key, or at
// an alias covering it); `rows` holds every row's unreached_row before.
void fill_reached(const KeyMasks& m, const Operator& op, std::vector<Row>& rows) {
  // Per alias rule: whether its alias key has kernels, and the active one
  // (looked up once per operator, not once per row it fills).
  std::uint8_t registered = 0;
  std::array<const Kernel*, 6> alias_kernel{};
  RowBits reached{};
  for (int i = 0; i < 6; ++i)
    if (m.aliases[i] && op.has(*m.aliases[i])) {
      registered |= 1u << i;
      alias_kernel[i] = op.active(*m.aliases[i]);
      for (int w = 0; w < 4; ++w) reached[w] |= m.rows_covered[i][w];
    }
  for_each_bit(op.present, [&](int k) {
    if (const int position = m.row_of_key[k]; position >= 0) reached[position >> 6] |= 1ull << (position & 63);
  });
  const bool has_cea = registered & (1u << KeyMasks::k_cea);
  const bool autogradother_kernel = intersects(op.present, m.autogradother_keys);
  for_each_bit(reached, [&](int i) {
    const RowMask& r = m.rows[i];
    const std::uint8_t applies = r.covered & registered;
    auto rule_applies = [applies](int alias_rule) { return (applies >> alias_rule) & 1; };
    auto fill = [&](Rule rule, Key provider, const Kernel* kernel) { rows[i] = Row{r.key, rule, kernel, nullptr, provider}; };
    auto fill_alias = [&](Rule rule, int alias_rule) { fill(rule, *m.aliases[alias_rule], alias_kernel[alias_rule]); };
    if (op.has(r.key)) {
      fill(Rule::Direct, r.key, op.active(r.key));
    } else if (rule_applies(KeyMasks::k_ceanf)) {
      fill_alias(Rule::CompositeExplicitAutogradNonFunctional, KeyMasks::k_ceanf);
    } else if (rule_applies(KeyMasks::k_cea)) {
      fill_alias(Rule::CompositeExplicitAutograd, KeyMasks::k_cea);
    } else if (rule_applies(KeyMasks::k_nested)) {
      fill_alias(Rule::CompositeImplicitAutogradNestedTensor, KeyMasks::k_nested);
    } else if (rule_applies(KeyMasks::k_cia) && r.autograd_other && autogradother_kernel) {
      fill(Rule::AmbiguousAutogradOther, *m.aliases[KeyMasks::k_cia], &ambiguous_autogradother_kernel());
    } else if (rule_applies(KeyMasks::k_cia) && !has_cea && !intersects(op.present, r.backend_keys)) {
      fill_alias(Rule::CompositeImplicitAutograd, KeyMasks::k_cia);
    } else if (rule_applies(KeyMasks::k_autograd)) {
      fill_alias(Rule::Autograd, KeyMasks::k_autograd);
    } else if (rule_applies(KeyMasks::k_batched)) {
      fill_alias(Rule::FuncTorchBatchedDecomposition, KeyMasks::k_batched);
    }  // else: the math kernel was blocked and nothing later applies: unreached after all
  });
}

}  // namespace

std::vector<Row> compute_table(const Registry& registry, const Operator& op) {
  std::vector<Row> rows;
  compute_table(registry, op, rows);
  return rows;
}

void compute_table(const Registry& registry, const Operator& op, std::vector<Row>& rows) {
  PhaseTimer timer("compute");
  const KeyMasks& m = key_masks(registry.catalogue());
  rows.resize(m.rows.size());
  for (size_t i = 0; i < rows.size(); ++i) rows[i] = unreached_row(registry, m.rows[i].key);
  fill_reached(m, op, rows);
}

TableComputer::TableComputer(const Registry& registry) : masks_(&key_masks(registry.catalogue())) {
  unreached_.reserve(masks_->rows.size());
  for (const RowMask& r : masks_->rows) unreached_.push_back(unreached_row(registry, r.key));
}

const std::vector<Row>& TableComputer::compute(const Operator& op) {
  PhaseTimer timer("compute");
  rows_ = unreached_;
  fill_reached(*masks_, op, rows_);
  return rows_;
}

}  // namespace dispatchctl
