#include "report/coverage.h"

#include <algorithm>

#include "query/predicates.h"
#include "registry/op_select.h"
#include "registry/key_lookup.h"

namespace dispatchctl {

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
  report.needs.reserve(report.rows.capacity());
  // One follower for the whole page: a callee many composites share is followed once.
  OutcomeFollower follower(registry, computed_row_of(registry));
  for (const Operator* op : report.operators) {
    for (std::size_t i = 0; i < report.keys.size(); ++i) {
      const Row row = compute_row(registry, *op, report.keys[i]);
      RowOutcome followed = follower.classify(*op, row);
      const Outcome outcome = followed.outcome;
      report.rows.push_back(row);
      report.outcomes.push_back(outcome);
      report.needs.push_back(std::move(followed.needs));
      ++report.totals[i].by_outcome[static_cast<int>(outcome)];
      if (outcome_works(outcome)) ++report.totals[i].working;
    }
  }
  const auto focus = std::find_if(report.keys.begin(), report.keys.end(),
                                  [&cat](Key k) { return cat.is_backend_dispatch_key(k) && !is_autograd_row(cat, k); });
  if (focus != report.keys.end()) report.implement.push_back(key_needs(registry, report.operators, *focus));
  report.focus = focus != report.keys.end() ? *focus : report.keys.empty() ? k_undefined : report.keys.front();
  const BuildBackends build = build_backends(registry);
  report.cpu_only = build.cpu_only;
  report.build_note = not_compiled_note(cat, build, report.keys);
  for (Key k : report.keys) {
    if (cat.backend_of(k) == 0) continue;
    const std::string backend(cat.spec().backends[cat.backend_of(k) - 1]);
    if (!build.compiled_in(backend) &&
        std::find(report.not_compiled.begin(), report.not_compiled.end(), backend) == report.not_compiled.end())
      report.not_compiled.push_back(backend);
  }
  return report;
}

}  // namespace dispatchctl
