// Rules that compare the registry before a change with the one after it
// (`check --base`): see lint_changes.cpp.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "check/dense_kernels.h"
#include "check/finding.h"
#include "registry/registry.h"

namespace dispatchctl {

// What a derivatives.yaml entry gives users (read from torchgen: sources, for
// `check --base`): whether a backward formula is not_implemented(…) (backward
// raises), whether it has a forward formula, and the operators it serves.
struct FormulaFact {
  bool backward_raises = false;
  std::string raising_inputs;  // the first not_implemented(…) formula's key ("other", "self, other")
  bool forward = false;
  std::string file;
  int line = 0;
  std::vector<std::string> ops;  // the entry's operator first, then the variants of its signature
  std::vector<std::string> inplace_ops;  // those variants that modify an argument (in-place, mutable)
};


// cuda_by_yaml: for a build without CUDA checked against torchgen YAML, what
// CUDA gets from the YAML (dense_kernels.h); nullopt leaves CUDA unjudged there.
void lint_changes(const Registry& before, const Registry& after, const std::function<bool(const Operator&)>& in_scope,
                  const std::optional<CudaKernelsByYaml>& cuda_by_yaml, std::vector<Finding>& out);

// The formulas' own costs (derivatives.yaml compared entry by entry): a
// formula replaced by not_implemented(…) (backward raises), a forward formula
// deleted (forward-mode AD raises).
void lint_formula_changes(const std::map<std::string, FormulaFact>& before,
                          const std::map<std::string, FormulaFact>& after, std::vector<Finding>& out);

// Each cost's suggested fix as edits (Finding::fix), where the advice is an
// edit: what the change took from the base, back (fixes.cpp).
void suggest_fixes(const Registry& before, const Registry& after,
                   const std::map<std::string, FormulaFact>& before_formulas,
                   const std::map<std::string, FormulaFact>& after_formulas, std::vector<Finding>& costs);

}  // namespace dispatchctl
