// dense-kernel-lost's question (`check --base`): did a change leave an
// operator without a kernel on every dense backend (CPU, CUDA) where it had
// one? (lint_changes.cpp reports it; math-kernel-lost says it too.)
#pragma once

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "query/predicates.h"
#include "registry/registry.h"
#include "table/table.h"

namespace dispatchctl {

// The operators whose torchgen YAML gives CUDA a kernel, before and after the
// change: what the registry of a build without CUDA cannot show (it registers
// none of them, though torchgen writes RegisterCUDA.cpp all the same).
struct CudaKernelsByYaml {
  std::set<std::string> before, after;
};

// A row where a call raises: no kernel, a backend fallback, or PyTorch's
// ambiguous AutogradOther kernel (lint_changes' math-kernel-lost reads it too).
bool lost_row(Rule r);

class DenseKernels {
 public:
  DenseKernels(const Registry& before, const Registry& after, const std::optional<CudaKernelsByYaml>& yaml);

  // The dense keys that had a kernel and lost it, when no dense key keeps one;
  // empty while one does: a CUDA-only operator (`CUDA: _foo_cuda`, as PyTorch
  // has hundreds) or a CPU-only one is a design, not a loss, and the real
  // torchgen's generated code agrees (the judge's dense: a CPU, CUDA or
  // composite kernel left). CUDA is read from the registry when the build
  // compiles it, else from the YAML when there is one, else not judged.
  std::vector<Key> lost(const Operator& old, const Operator& now) const;
  // " (a build without CUDA: CUDA's kernels are not judged)" when neither the
  // build nor a YAML says what CUDA keeps; "" otherwise.
  std::string unjudged_note() const;

 private:
  const Registry& before_;
  const Registry& after_;
  const std::optional<CudaKernelsByYaml>& yaml_;
  BuildBackends build_;
};

}  // namespace dispatchctl
