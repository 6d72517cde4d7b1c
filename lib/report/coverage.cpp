#include "report/coverage.h"

#include <algorithm>

#include "registry/op_select.h"
#include "query/predicates.h"
#include "registry/key_lookup.h"

namespace dispatchctl {

std::string_view outcome_id(Outcome o) {
  constexpr std::string_view ids[] = {"direct",  "composite", "python",    "fallback",
                                      "fallthrough", "raises", "ambiguous", "missing"};
  return ids[static_cast<int>(o)];
}

std::string_view outcome_label(Outcome o) {
  constexpr std::string_view labels[] = {
      "direct kernel",    "composite / alias kernel", "Python kernel",       "backend fallback",
      "fallthrough",      "raises when called",       "ambiguous (raises)",  "missing (raises)"};
  return labels[static_cast<int>(o)];
}

bool outcome_works(Outcome o) {
  return o != Outcome::Raises && o != Outcome::Ambiguous && o != Outcome::Missing;
}

bool registered_from_python(std::string_view debug) {
  // PyTorch's debug string for torch.library registrations: "registered at FILE.py:LINE".
  const auto colon = debug.rfind(':');
  if (colon == std::string_view::npos || colon < 3) return false;
  return debug.substr(colon - 3, 3) == ".py";
}

Outcome classify_row(const Catalogue& cat, const Row& row) {
  if (!row.valid()) return Outcome::Missing;
  if (row.rule == Rule::AmbiguousAutogradOther) return Outcome::Ambiguous;
  if (row_known_to_raise(cat, row)) return Outcome::Raises;
  if (row.fallthrough()) return Outcome::Fallthrough;
  if (row.rule == Rule::BackendFallback) return Outcome::Fallback;
  if (registered_from_python(row.debug())) return Outcome::Python;
  return row.rule == Rule::Direct ? Outcome::Direct : Outcome::Composite;
}

std::vector<Key> default_coverage_keys(const Registry& registry) {
  const Catalogue& cat = registry.catalogue();
  std::vector<bool> wanted(cat.key_count(), false);
  auto add_with_autograd = [&](Key k) {
    wanted[k] = true;
    wanted[cat.autograd_key_from_backend(cat.backend_of(k))] = true;
  };
  add_with_autograd(cat.well_known().meta);
  for (const Operator& op : registry.operators())
    for (const auto& kk : op.by_key())
      if (cat.is_backend_dispatch_key(kk.key) && cat.is_runtime(kk.key) && !wanted[kk.key])
        add_with_autograd(kk.key);
  std::vector<Key> keys;
  for (Key k : cat.runtime_keys())
    if (wanted[k]) keys.push_back(k);
  return keys;
}

CoverageReport build_coverage(const Registry& registry, const CoverageOptions& options) {
  const Catalogue& cat = registry.catalogue();
  CoverageReport report;
  report.registry = &registry;
  for (const auto& name : options.keys) {
    const Key k = require_runtime_key(cat, name, "--key");
    if (std::find(report.keys.begin(), report.keys.end(), k) == report.keys.end()) report.keys.push_back(k);
  }
  if (report.keys.empty()) report.keys = default_coverage_keys(registry);
  report.operators = options.op_patterns.empty() ? registry.sorted_operators()
                                                 : select_operators(registry, options.op_patterns);
  report.totals.resize(report.keys.size());
  report.rows.reserve(report.operators.size() * report.keys.size());
  report.outcomes.reserve(report.rows.capacity());
  for (const Operator* op : report.operators) {
    for (std::size_t i = 0; i < report.keys.size(); ++i) {
      const Row row = compute_row(registry, *op, report.keys[i]);
      const Outcome outcome = classify_row(cat, row);
      report.rows.push_back(row);
      report.outcomes.push_back(outcome);
      ++report.totals[i].by_outcome[static_cast<int>(outcome)];
      if (outcome_works(outcome)) ++report.totals[i].working;
    }
  }
  return report;
}

}  // namespace dispatchctl
