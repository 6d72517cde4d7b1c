#include "trace/generated_kernels.h"

#include <algorithm>

#include "table/torch_messages.h"
#include "util/join.h"
#include "registry/operator_name.h"

namespace dispatchctl {

namespace {

std::string_view call_words(GeneratedCallKind kind) {
  switch (kind) {
    case GeneratedCallKind::StructuredOut:
      return "torchgen's generated structured composite: runs the meta function, makes the output, then calls ";
    case GeneratedCallKind::AutogenOut:
      return "torchgen's generated out= kernel (autogen): calls the functional op, then copies into out=; calls ";
    case GeneratedCallKind::AutogenFunctional:
      return "torchgen's generated functional kernel (autogen): clones the written inputs and calls ";
  }
  return "";
}

bool generated_by(const Row& row, KernelGenerator generator) {
  return row.kernel && row.kernel->source.generator == generator;
}

}  // namespace

std::optional<Behaviour> generated_composite_behaviour(const Registry& registry, const Operator& op, const Row& row) {
  if (row.rule == Rule::BackendFallback || !row.kernel) return std::nullopt;
  const GeneratedCall* call = registry.generated_call(*row.kernel);
  if (!call) return std::nullopt;
  const Operator* callee = registry.find(call->callee);
  if (!callee || callee == &op) return std::nullopt;
  Behaviour b;
  b.action = HopAction::CallOperator;
  b.callee = callee;
  b.does = std::string(call_words(call->kind)) + std::string(callee->name) +
           " through the dispatcher (a fresh call: its key set is recomputed from the tensors and the TLS)";
  b.assumed = "torchgen's generated kernel (" + std::string(generated_call_kind_id(call->kind)) +
              ": what it calls is fixed by native_functions.yaml)";
  if (call->kind == GeneratedCallKind::StructuredOut)
    b.caveat = "the meta function of " + std::string(op.name) + ", which runs before " + std::string(callee->name) +
               " is called, raises its own error first (it refuses e.g. a tensor that is not strided: "
               "\"unsupported tensor layout\")";
  return b;
}

// "aten::add_.Tensor": a base name ending in one underscore (not a dunder such as __iadd__).
bool is_inplace_operator(std::string_view name) {
  const std::string_view base = bare_operator_name(name);
  return base.size() > 1 && base.back() == '_' && base.rfind("__", 0) != 0;
}

namespace {

// Whether a tensor of the call named in `names` requires grad.
bool named_tensor_requires_grad(const std::vector<std::string>& tensor_names, const std::vector<bool>& requires_grad,
                                const std::vector<Text>& names) {
  for (std::size_t i = 0; i < tensor_names.size() && i < requires_grad.size(); ++i)
    if (requires_grad[i] && std::find(names.begin(), names.end(), tensor_names[i]) != names.end()) return true;
  return false;
}

}  // namespace

std::optional<Behaviour> out_grad_refusal(const Registry& registry, const Operator& op, const Row& row,
                                          const CallFacts& facts) {
  if (!facts.grad_mode || !row.kernel || !is_generated_autograd_kernel(row)) return std::nullopt;
  const OutGradCheck* check = registry.out_grad_check(*row.kernel);
  if (!check) return std::nullopt;
  const std::vector<std::string>& names = facts.binding.names;
  const bool input = named_tensor_requires_grad(names, facts.requires_grad, check->inputs);
  if (!input && !named_tensor_requires_grad(names, facts.requires_grad, check->outputs)) return std::nullopt;
  Behaviour b;
  b.action = HopAction::Raise;
  b.error_type = "RuntimeError";
  b.error = out_requires_grad_error(op.name);
  b.does = "the generated autograd kernel of " + std::string(op.name) +
           " (differentiable by the release's derivatives.yaml) refuses " +
           (input ? "a differentiable input (" + join(check->inputs, ",") + ")"
                  : "an out= argument (" + join(check->outputs, ",") + ")") +
           " that requires grad (compute_requires_grad, then throw_error_out_requires_grad)";
  b.assumed = "torchgen's generated autograd kernels of out= operators (gen_variable_type: requires_derivative)";
  return b;
}

bool is_generated_autograd_kernel(const Row& row) {
  return row.rule != Rule::BackendFallback && generated_by(row, KernelGenerator::VariableType);
}

bool add_inference_bump(const Catalogue& cat, const Operator& op, const Row& row, bool writes_inference_tensor,
                        Behaviour& b) {
  if (!writes_inference_tensor || row.rule == Rule::BackendFallback) return false;
  const bool ad_inplace = cat.functionality_of(row.key) == cat.well_known().ad_inplace_or_view &&
                          generated_by(row, KernelGenerator::ADInplaceOrViewType);
  if (!ad_inplace && !is_generated_autograd_kernel(row)) return false;
  b.after_return_error_type = "RuntimeError";
  b.after_return_error = std::string(k_inplace_inference_error);
  b.after_return_does = std::string("once the call below returns, the generated ") +
                        (ad_inplace ? "ADInplaceOrView" : "autograd") + " kernel of " + std::string(op.name) +
                        " bumps the written tensor's version (increment_version), which an inference tensor "
                        "refuses outside inference mode (VariableVersion::bump)";
  return true;
}

}  // namespace dispatchctl
