#include "trace/generated_kernels.h"

#include <variant>

#include "registry/schema_parser.h"
#include "table/torch_messages.h"

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

bool debug_names(const Row& row, std::string_view file) {
  return row.kernel && std::string_view(row.kernel->debug).find(file) != std::string_view::npos;
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
  const size_t colon = name.find("::");
  std::string_view base = colon == std::string_view::npos ? name : name.substr(colon + 2);
  base = base.substr(0, base.find('.'));
  return base.size() > 1 && base.back() == '_' && base.rfind("__", 0) != 0;
}

std::vector<bool> written_tensor_arguments(const Operator& op) {
  std::vector<bool> written;
  if (!op.schema) return written;
  const auto parsed = parse_function_schema(op.schema->text, {true});
  const auto* schema = std::get_if<FunctionSchema>(&parsed);
  if (!schema) return written;
  for (const auto& a : schema->arguments) {
    if (!a.type.tensor_like() || a.type.tensor_list()) continue;
    written.push_back(!a.alias.empty() && a.alias.back() == '!');
  }
  return written;
}

std::optional<Behaviour> inference_inplace_behaviour(const Catalogue& cat, const Operator& op, const Row& row,
                                                     bool writes_inference_tensor) {
  if (!writes_inference_tensor || row.rule == Rule::BackendFallback) return std::nullopt;
  const bool ad_inplace = cat.functionality_of(row.key) == cat.well_known().ad_inplace_or_view &&
                          debug_names(row, "/autograd/generated/ADInplaceOrViewType");
  const bool autograd = debug_names(row, "/autograd/generated/VariableType");
  if (!ad_inplace && !autograd) return std::nullopt;
  Behaviour b;
  b.action = HopAction::Raise;
  b.error_type = "RuntimeError";
  b.error = std::string(k_inplace_inference_error);
  b.does = std::string("the generated ") + (ad_inplace ? "ADInplaceOrView" : "autograd") + " kernel of " +
           std::string(op.name) +
           " passes the call on, then bumps the written tensor's version (increment_version), which an "
           "inference tensor refuses outside inference mode (VariableVersion::bump)";
  b.assumed = "generated in-place/out= kernels (increment_version; c10/core/TensorImpl.h)";
  return b;
}

}  // namespace dispatchctl
