// Operator coverage of dispatch keys (`dispatchctl report`): operators x keys,
// every cell sorted into the outcome a backend author tracks (a kernel of its
// own, a composite one, a fallback, an error at call time …), with per-key
// totals. One model; render/report_html draws it, render/diff_html reuses
// its outcome classification for before/after cells.
#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "table/needs.h"
#include "table/outcome.h"

namespace dispatchctl {

struct CoverageOptions {
  std::vector<std::string> keys;         // runtime key names; empty = default_coverage_keys
  std::vector<std::string> op_patterns;  // names, bare names, globs; empty = every operator
};

struct KeyTotals {
  OutcomeCounts by_outcome{};
  std::size_t working = 0;  // cells whose outcome works (outcome_works: README, "What working means")
};

struct CoverageReport {
  const Registry* registry = nullptr;
  std::vector<Key> keys;                  // columns
  std::vector<const Operator*> operators;  // rows, sorted by name
  std::vector<Row> rows;                  // operators x keys, row-major
  std::vector<Outcome> outcomes;          // parallel to rows (generated composites followed)
  std::vector<Dependency> needs;          // parallel to rows: what a generated composite calls
  // The backend key the report is about: the first column that is a backend
  // key (not an autograd one: its needs are the backend's rows below), else
  // the first column; `--key` order chooses it. k_undefined without columns.
  Key focus = k_undefined;
  // What to implement at focus when it is a backend key: forward and
  // backward, aggregated over the operators (table/needs.h); empty otherwise.
  // One key: a whole registry's needs at every default column cost more than
  // the rest of the report.
  std::vector<KeyNeeds> implement;
  std::vector<KeyTotals> totals;          // per column
  // The registry is a CPU-only build (query/predicates.h build_backends):
  // its rows for other backends are what a CPU-only PyTorch computes.
  bool cpu_only = false;
  std::vector<std::string> not_compiled;  // backends of the columns the build has no kernels for
  std::string build_note;                 // the sentence saying so, "" when not CPU-only
  // The operator set the operators come from (--opset, --ops-from), as the
  // page and summary name it: "the core opset of PyTorch 2.14.1 (193 operators)"; set by the caller.
  std::string scope;

  const Row& row(std::size_t op, std::size_t key) const { return rows[op * keys.size() + key]; }
  Outcome outcome(std::size_t op, std::size_t key) const { return outcomes[op * keys.size() + key]; }
  const Dependency& dependency(std::size_t op, std::size_t key) const { return needs[op * keys.size() + key]; }
};

// The backend keys some operator registers a kernel at directly, plus Meta,
// and the Autograd key of each; in table order.
std::vector<Key> default_coverage_keys(const Registry& registry);
// InputError (with did-you-mean) for an unknown or non-runtime key, or a
// non-glob pattern that names no operator.
CoverageReport build_coverage(const Registry& registry, const CoverageOptions& options);

}  // namespace dispatchctl
