// gen_variable_type's differentiability of one operator (issue 32: written
// once, for the refusals and the out= checks): which inputs and outputs are
// differentiable under a derivatives.yaml entry's formulas at one dispatch key,
// and whether the operator requires a derivative (emit_body's
// requires_derivative, tools/autograd/gen_variable_type.py; the outputs are
// torchgen/api/autograd.py gen_differentiable_outputs').
#pragma once

#include <set>
#include <string>
#include <vector>

#include "torchgen/model.h"
#include "torchgen/release_rules.h"

namespace dispatchctl::torchgen {

// One dispatch key's formulas of an entry, split as set_up_derivatives does:
// forward formulas name outputs (`result`), the others name inputs.
struct KeyFormulas {
  std::vector<const DifferentiabilityInfo::Formula*> backward, forward;
  std::set<std::string> derived, non_differentiable;  // input names
};
KeyFormulas formulas_at(const DifferentiabilityInfo& info, const std::string& key);

// cpp.return_names: what gen_variable_type calls each output.
std::vector<std::string> return_names(const FunctionSchema& s);

struct Differentiability {
  std::vector<std::string> inputs;   // differentiable inputs (not out=), schema order
  std::vector<std::string> outputs;  // differentiable outputs, by their return names
  bool exempt = false;               // DONT_REQUIRE_DERIVATIVE names the operator (base or cpp name)
  // output_differentiability's length is not the number of outputs: torchgen
  // refuses the operator (output-differentiability-length), `outputs` is empty.
  bool lengths_refused = false;
  bool requires_derivative() const { return !exempt && !lengths_refused && !inputs.empty() && !outputs.empty(); }
};
// `f` taking `info`'s formulas at derivatives.yaml key `key`.
Differentiability differentiability(const FunctionSchema& f, const DifferentiabilityInfo& info,
                                                   const std::string& key, const ReleaseRules& rules);

// The key a derivatives.yaml dispatch key's VariableType kernel is registered
// at: `Default` (an entry without dispatch:) is Autograd.
std::string autograd_key(const std::string& derivatives_key);

}  // namespace dispatchctl::torchgen
