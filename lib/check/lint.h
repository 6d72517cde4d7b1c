// The registry rules of `check` (load problems are found by load.h).
#pragma once

#include <functional>
#include <vector>

#include "check/finding.h"
#include "registry/registry.h"

namespace dispatchctl {

struct LintScope {
  std::function<bool(const Operator&)> contains;
  // What the user registered: operators a manifest file touches, or every
  // operator with --include-base. Rules about PyTorch's own design choices
  // (no-autograd-kernel: hundreds of aten ops are deliberately not
  // differentiable) report only these, also when only builtins are checked.
  std::function<bool(const Operator&)> registered_by_user;
  // Kernels the checked files registered (null: every kernel counts). Rows a
  // backend's kernels never reach are not the backend's findings, and its
  // --require Autograd means its own autograd keys.
  std::function<bool(const Kernel&)> kernel_by_user;
  std::vector<Key> required;  // runtime keys
  // Alias keys given to --require: each stands for its runtime keys the
  // operator has a backend kernel for (--require Autograd -> AutogradCPU …).
  std::vector<Key> required_aliases;
};

// The autograd keys (Autograd<backend>, AutogradOther) an operator's own
// backend kernels (direct, CompositeExplicitAutograd[NonFunctional]) need, in table order.
// With `only`, only the kernels it accepts count.
std::vector<Key> autograd_keys_of_backend_kernels(const Catalogue& cat, const Operator& op,
                                                  const std::function<bool(const Kernel&)>& only = nullptr);
// scope.required plus the runtime keys scope.required_aliases stand for on `op`.
std::vector<Key> required_keys_for(const Catalogue& cat, const Operator& op, const LintScope& scope);

void lint_dangling_impls(const Registry& registry, const LintScope& scope, std::vector<Finding>& out);
void lint_overrides(const Registry& registry, const LintScope& scope, std::vector<Finding>& out);
void lint_ambiguity(const Registry& registry, const LintScope& scope, std::vector<Finding>& out);
void lint_cia_with_backend(const Registry& registry, const LintScope& scope, std::vector<Finding>& out);
void lint_stale_live_rows(const Registry& registry, const LintScope& scope, std::vector<Finding>& out);
void lint_no_autograd_kernel(const Registry& registry, const LintScope& scope, std::vector<Finding>& out);
void lint_required_keys(const Registry& registry, const LintScope& scope, std::vector<Finding>& out);
void lint_foreign_backend_keys(const Registry& registry, const LintScope& scope, std::vector<Finding>& out);

}  // namespace dispatchctl
