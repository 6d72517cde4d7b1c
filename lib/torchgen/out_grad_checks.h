// What the generated autograd kernel of an out= operator checks before it
// calls below (registry.h OutGradCheck): tools/autograd's gen_variable_type
// emit_body gives an out= function with `requires_derivative` two
// SETUP_NONE_REQUIRES_GRAD checks (throw_error_out_requires_grad), first on its
// differentiable inputs, then on its differentiable outputs. Whether it
// requires a derivative comes from derivatives.yaml (the functional variant's
// info, InfoMatcher), which a registry does not carry: the built-in packs get
// the facts from the release's YAML at build time.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "registry/registry.h"
#include "torchgen/inputs.h"
#include "torchgen/model.h"
#include "torchgen/release_rules.h"

namespace dispatchctl::torchgen {

struct OutGradCheckFact {
  std::string op;   // "aten::add.out"
  std::string key;  // the autograd key its VariableType kernel is registered at ("Autograd" for Default)
  std::vector<std::string> inputs, outputs;  // argument names, in schema order
};

// The out= operators whose generated autograd kernel requires a derivative,
// with the arguments it checks: only where derivatives.yaml gives the operator
// an info (without one torchgen registers the autograd-not-implemented kernel
// or no check at all).
std::vector<OutGradCheckFact> out_grad_checks(const TorchgenModel& model, const ReleaseRules& rules);

// Records each fact on the operator's kernels at its key that PyTorch's dump
// says were registered from VariableType[_N].cpp; returns how many kernels got
// one. Nothing without derivatives.yaml or rules for the registry's release.
std::size_t record_out_grad_checks(Registry& registry, const TorchgenInputs& inputs);

}  // namespace dispatchctl::torchgen
