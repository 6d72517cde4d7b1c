// `has-kernel OP --key K [--computed | --works]`: PyTorch's
// _dispatch_has_kernel_for_dispatch_key and
// _dispatch_has_computed_kernel_for_dispatch_key (docs/dispatch-semantics.md §7),
// and whether a call reaching K's row returns. The answer as data; the
// sentence and JSON are render/has_kernel_render's.
#pragma once

#include <optional>
#include <string>

#include "query/predicates.h"
#include "table/kernel_kind.h"

namespace dispatchctl {

enum class HasKernelQuestion { Registered, Computed, Works };
enum class HasKernelAnswer { Yes, No, Unknown };

// --works's backward answer (query/has_kernel_backward.h).
struct HasKernelBackward {
  HasKernelAnswer answer = HasKernelAnswer::Unknown;
  // yes: always (AccumulateGrad is not recorded); no: only for an output that
  // is not 0-dim when the raise is in out.sum()'s own steps.
  bool assumed = true;
  const Operator* raises_at = nullptr;
  std::string error_type, error, error_caveat;
  std::string text;  // one sentence
};

struct HasKernelResult {
  HasKernelQuestion question = HasKernelQuestion::Registered;
  HasKernelAnswer answer = HasKernelAnswer::No;
  const Operator* op = nullptr;
  Key key = k_undefined;
  // Registered: the active kernel at exactly `key`, if any.
  const Kernel* registered = nullptr;
  // Computed and Works: the row PyTorch reads (a building block answers for
  // its CPU instance) in the live table, and what a call through it does.
  Key row_key = k_undefined;
  Row row;
  Outcome outcome = Outcome::Missing;
  Dependency needs;  // what the row's kernel calls, followed (table/outcome.h)
  // A hand-written composite whose calls were not recorded: works, assumed.
  bool assumed = false;
  // A row that fails because of what it calls: the operator whose row raises
  // at the end of the chain, and PyTorch's first line there (a missing row's
  // "Could not run …", a stub's message).
  const Operator* raises_at = nullptr;
  Key raises_at_key = k_undefined;
  std::string error_type, error;
  RowVerdict verdict = RowVerdict::Unknown;
  // A key of a backend this build has no kernels for: the answer is this build's.
  std::string build_note;
  // The registry is a predicted one (the caller's to say: builtin/builtin.h).
  std::string registry_note;
  // --works: the backward's answer, where it is asked (answer_has_kernel_backward);
  // --backward: `answer` is then forward and backward together.
  std::optional<HasKernelBackward> backward;
  bool answer_includes_backward = false;
};

// InputError for an alias key with --computed/--works, as PyTorch raises.
// `build` is build_backends(registry), with how it was loaded (BuildBackends).
HasKernelResult answer_has_kernel(const Registry& registry, const Operator& op, Key k, HasKernelQuestion question,
                                  const BuildBackends& build);
// --works: yes when the row's outcome works (table/outcome.h), unknown for a
// Python kernel, no otherwise (autograd not implemented included).
// 0 for yes, 1 for no and unknown (a script never reads unknown as yes).
inline int exit_status(HasKernelAnswer answer) { return answer == HasKernelAnswer::Yes ? 0 : 1; }

}  // namespace dispatchctl
