// What torchgen's generated kernels do that a table can know (issue 22):
// a generated composite calls the operator torchgen fixed for it
// (Registry::generated_call), and the generated ADInplaceOrView and autograd
// kernels of an operator that writes a tensor bump its version, which an
// inference tensor refuses outside inference mode. The rest of behaviour.cpp's
// defaults decide everything else.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "trace/behaviour.h"

namespace dispatchctl {

// A row whose kernel is a generated composite whose callee the registry
// holds: the kernel calls that operator from the top (HopAction::CallOperator).
std::optional<Behaviour> generated_composite_behaviour(const Registry& registry, const Operator& op, const Row& row);

// "aten::add_.Tensor": a base name ending in one underscore (not a dunder such
// as __iadd__), whose generated autograd kernel checks a leaf in place.
bool is_inplace_operator(std::string_view name);

// The generated autograd kernel at `row` of an out= operator whose check the
// registry knows (Registry::out_grad_check, from the release's derivatives.yaml):
// in grad mode it refuses a differentiable input, then an out= argument, that
// requires grad (VariableTypeUtils.h throw_error_out_requires_grad). nullopt
// when the check is not known or passes.
std::optional<Behaviour> out_grad_refusal(const Registry& registry, const Operator& op, const Row& row,
                                          const CallFacts& facts);

// Whether `row` runs torchgen's generated autograd kernel (VariableType_N.cpp),
// not a hand-written one (VariableTypeManual.cpp) or a fallback.
bool is_generated_autograd_kernel(const Row& row);

// The generated ADInplaceOrView kernel (ADInplaceOrViewType_N.cpp) or
// autograd kernel (VariableType_N.cpp) at `row` of an operator that writes a
// tensor: after the call below it returns it bumps that tensor's version
// (increment_version), and VariableVersion::bump raises for an inference
// tensor outside inference mode. `writes_inference_tensor`: a written
// argument of the call is one. Adds that raise to `b` as what happens once
// the call below returns; false (b unchanged) when the check does not apply.
bool add_inference_bump(const Catalogue& cat, const Operator& op, const Row& row, bool writes_inference_tensor,
                        Behaviour& b);

}  // namespace dispatchctl
