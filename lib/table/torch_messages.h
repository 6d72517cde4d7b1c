// PyTorch's error and warning texts, byte for byte, in one place: every
// command that says what PyTorch prints (explain, trace, check, report)
// builds it here. Release-dependent texts come from the release profile
// (ReleaseSpec); the rest is the same in every release the profiles cover.
#pragma once

#include <string>
#include <vector>

#include "table/table.h"

namespace dispatchctl {

// The NotImplementedError a call raises when it reaches missing row `k`
// (§4.3): Undefined's "There were no tensor arguments …" or "Could not run
// 'OP' with arguments from the 'K' backend. …", the keys of the valid live
// rows (`available`, listAllDispatchKeys), a blank line, the computed table.
// `privateuse1_backend`: the name torch.utils.rename_privateuse1_backend gave
// (Registry::privateuse1_backend): PyTorch names the key with it in "from the
// '…' backend" (PrivateUse1 -> npu, AutocastPrivateUse1 -> Autocastnpu), not in
// the list of available backends (live 2.14.1).
std::string missing_row_error(const Catalogue& cat, const Operator& op, Key k, const std::vector<Row>& table,
                              const std::vector<Key>& available, std::string_view privateuse1_backend = {});
// Its first line only ("Could not run 'aten::add.out' with arguments from the 'QuantizedCPU' backend").
std::string missing_row_headline(const Catalogue& cat, std::string_view op_name, Key k,
                                 std::string_view privateuse1_backend = {});
// Keys whose row holds a valid kernel, table order, Undefined excluded (listAllDispatchKeys).
std::vector<Key> available_keys(const std::vector<Row>& table);

// The raising Meta backend fallback's NotImplementedError (profile
// `meta_fallback_error`); empty when the release has none.
std::string meta_fallback_error(const Catalogue& cat, std::string_view op_name);
// The autograd-not-implemented fallback's backward warning (profile
// `autograd_fallback_backward_warning`); empty when the release has none.
std::string autograd_fallback_warning(const Catalogue& cat, std::string_view op_name);
// The ambiguous AutogradOther kernel's INTERNAL ASSERT with the operator's dumpState.
std::string ambiguous_autogradother_error(const Catalogue& cat, const Operator& op);
// The INTERNAL ASSERT of a fallthrough kernel that gets called (§9.1).
std::string fallthrough_called_error(const Catalogue& cat);
// The generated autograd kernels' in-place checks (torch/csrc/autograd/VariableTypeUtils.h
// check_inplace; c10/core/TensorImpl.h for inference tensors).
inline constexpr std::string_view k_inplace_leaf_error =
    "a leaf Variable that requires grad is being used in an in-place operation.";
// The generated autograd kernel of a differentiable out= operator, when an
// argument requires grad (VariableTypeUtils.h throw_error_out_requires_grad):
// "add(): functions with out=... arguments don't support automatic differentiation, …".
std::string out_requires_grad_error(std::string_view op_name);
// The Named backend fallback's error (KernelFunction.cpp named_not_supported_kernel,
// checked on live 1.13.1): the operator's name without its overload.
std::string named_not_supported_error(std::string_view op_name);
inline constexpr std::string_view k_inplace_inference_error =
    "Inplace update to inference tensor outside InferenceMode is not allowed.You can make a clone to get a "
    "normal tensor before doing inplace update.See https://github.com/pytorch/rfcs/pull/17 for more details.";

}  // namespace dispatchctl
