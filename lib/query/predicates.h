// Yes/no questions about operators and keys, answered as PyTorch's Python
// bindings answer them (docs/dispatch-semantics.md §7), and the AND-combined
// predicates of `dispatchctl query`.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "table/outcome.h"

namespace dispatchctl {

// _dispatch_has_kernel_for_dispatch_key: a registration at exactly `k`
// (alias keys and building blocks allowed; fallthrough kernels count).
bool has_kernel_for_dispatch_key(const Operator& op, Key k);

// The table row _dispatch_has_computed_kernel_for_dispatch_key reads for `k`:
// a building block answers for its CPU instance (Dense ≡ CPU, §1.8); an
// alias key throws InputError with PyTorch's text.
Key computed_row_key(const Catalogue& cat, Key k);
// The row a call uses: PyTorch's live table (lib/live replay, §3.3), which
// differs from the computed row only for stale rows.
Row live_row(const Registry& registry, const Operator& op, Key k);
// live_row as the outcome model reads a generated composite's callee (table/outcome.h RowOf).
RowOf live_row_of(const Registry& registry);
// _dispatch_has_computed_kernel_for_dispatch_key: the live row holds a valid
// kernel (fallthrough fallbacks and the ambiguous kernel included).
bool has_computed_kernel_for_dispatch_key(const Registry& registry, const Operator& op, Key k);

// Which backends the registry's PyTorch build was compiled with: a backend
// (CPU, CUDA, …, PrivateUse1, Meta) is compiled in when some C++ kernel or
// backend fallback is registered at one of its backend keys (CUDA, SparseCUDA,
// QuantizedCUDA, …), not counting torch.distributed's c10d:: collectives,
// which every build registers at CUDA and PrivateUse1. The built-in registries are Debian's CPU-only builds:
// their CUDA rows are what a CPU-only PyTorch computes, not what a CUDA build does.
struct BuildBackends {
  std::vector<std::string> compiled, not_compiled;  // backend names, catalogue order
  bool cpu_only = false;  // CPU compiled, none of the GPU backends (CUDA, HIP, XPU, MPS)
  // The registry is an export of the user's own PyTorch (-m python): the note
  // then says that PyTorch is CPU-only instead of advising -m python. The
  // caller sets it: the registry does not know how it was loaded.
  bool exported_from_python = false;
  // Registries of a CUDA build a CPU-only note names ("builtin:2.6.0+cuda (real), …"):
  // the caller's, who knows what is built in (builtin_names_of_build).
  std::string other_builds;
  bool compiled_in(std::string_view backend) const;
};
BuildBackends build_backends(const Registry& registry);
// For a key of a backend a CPU-only build has no kernels for (CUDA, AutogradCUDA,
// SparseCUDA…): "CPU-only build (no kernels for CUDA): …export…". Empty otherwise.
std::string not_compiled_note(const Catalogue& cat, const BuildBackends& build, Key k);
// The same for a set of keys (`show`'s header); names the backends concerned.
std::string not_compiled_note(const Catalogue& cat, const BuildBackends& build, const std::vector<Key>& keys);

// "math kernel", "math_kernel", "missing" … -> the tag id ("math_kernel").
// InputError with a did-you-mean otherwise.
std::string require_tag(std::string_view text);

// "python", "C++ kernel", "autograd not implemented" … -> the outcome.
// InputError with a did-you-mean otherwise.
Outcome require_outcome(std::string_view text);

// The predicates of `dispatchctl query`; every one that is set must hold.
struct Query {
  std::optional<Key> key;  // the key --registered/--computed/--tag/--works/--fails read
  bool registered = false;  // has_kernel_for_dispatch_key(op, key)
  bool computed = false;    // has_computed_kernel_for_dispatch_key(op, key)
  bool works = false;       // row_verdict of the row a call uses is Works
  bool fails = false;       // … is Fails (missing or known to raise)
  bool unknown = false;     // … is Unknown (a Python kernel)
  std::vector<Outcome> outcomes;  // the outcome of the row a call uses is one of them
  std::vector<std::string> tags;  // tag ids; the computed row's tag is one of them
  std::vector<Key> registered_at;  // a registration at exactly each
  std::vector<Key> without;        // no registration at any
  std::vector<std::string> op_patterns;  // names, bare names, globs (any of them)
  // The caller counts --key's rows by outcome (query_outcome_counts): --key
  // alone is then a question, "how do these operators fare at K".
  bool count_outcomes = false;
};

// Checks the query is well-formed (a mode needs --key and vice versa; row
// predicates reject alias keys like PyTorch). Throws InputError.
void validate_query(const Catalogue& cat, const Query& query);
// Matching operators, sorted by name.
std::vector<const Operator*> run_query(const Registry& registry, const Query& query);
// The query's --key rows (the row a call uses, as the predicates read it) of
// every operator --op selects, before any row predicate, by outcome: what
// report and explain --key count for the same key. Needs --key.
OutcomeCounts query_outcome_counts(const Registry& registry, const Query& query);

// What `query` answers (the CLI and the Python module alike): the matching
// operators; with --works, how many rows it left out as python kernels (their
// working is unknown); with count_outcomes, --key's rows by outcome.
struct QueryAnswer {
  std::vector<const Operator*> found;
  std::optional<size_t> python_left_out;
  std::optional<OutcomeCounts> counts;
};
QueryAnswer answer_query(const Registry& registry, const Query& query);

}  // namespace dispatchctl
