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

#include "table/table.h"

namespace dispatchctl {

// The order is the legend's order: working outcomes first, then the failing ones.
enum class Outcome : std::uint8_t {
  Direct,       // a C++ kernel registered at exactly this key
  Composite,    // filled through an alias key (CompositeImplicitAutograd, Autograd …)
  Python,       // a kernel registered from a .py file (torch.library, meta registrations)
  Fallback,     // the key's backend fallback
  Fallthrough,  // a fallthrough: a call skips this key
  Raises,       // a kernel that is known to raise when called (the 2.x Meta fallback …)
  Ambiguous,    // ambiguous AutogradOther: a call raises
  Missing,      // no kernel: a call raises
};
constexpr std::size_t k_outcome_count = 8;
constexpr Outcome k_all_outcomes[k_outcome_count] = {
    Outcome::Direct,      Outcome::Composite, Outcome::Python,    Outcome::Fallback,
    Outcome::Fallthrough, Outcome::Raises,    Outcome::Ambiguous, Outcome::Missing};

std::string_view outcome_id(Outcome o);     // "direct", "composite", …
std::string_view outcome_label(Outcome o);  // "direct kernel", …
// A call at this key runs something that returns (or skips the key).
bool outcome_works(Outcome o);
// A kernel whose registration points into a Python source file.
bool registered_from_python(std::string_view debug);
Outcome classify_row(const Catalogue& cat, const Row& row);

struct CoverageOptions {
  std::vector<std::string> keys;         // runtime key names; empty = default_coverage_keys
  std::vector<std::string> op_patterns;  // names, bare names, globs; empty = every operator
};

struct KeyTotals {
  std::array<std::size_t, k_outcome_count> by_outcome{};
  std::size_t working = 0;  // cells whose outcome works
};

struct CoverageReport {
  const Registry* registry = nullptr;
  std::vector<Key> keys;                  // columns
  std::vector<const Operator*> operators;  // rows, sorted by name
  std::vector<Row> rows;                  // operators x keys, row-major
  std::vector<Outcome> outcomes;          // parallel to rows
  std::vector<KeyTotals> totals;          // per column

  const Row& row(std::size_t op, std::size_t key) const { return rows[op * keys.size() + key]; }
  Outcome outcome(std::size_t op, std::size_t key) const { return outcomes[op * keys.size() + key]; }
};

// The backend keys some operator registers a kernel at directly, plus Meta,
// and the Autograd key of each; in table order.
std::vector<Key> default_coverage_keys(const Registry& registry);
// InputError (with did-you-mean) for an unknown or non-runtime key, or a
// non-glob pattern that names no operator.
CoverageReport build_coverage(const Registry& registry, const CoverageOptions& options);

}  // namespace dispatchctl
