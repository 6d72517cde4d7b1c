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

std::vector<bool> written_tensor_arguments(const Operator& op, std::size_t given) {
  std::vector<bool> written;
  if (!op.schema) return written;
  const auto parsed = parse_function_schema(op.schema->text, {true});
  const auto* schema = std::get_if<FunctionSchema>(&parsed);
  if (!schema) return written;
  std::size_t single = 0;
  for (const auto& a : schema->arguments) single += a.type.tensor_like() && !a.type.tensor_list();
  const std::size_t in_lists = given > single ? given - single : 0;
  for (const auto& a : schema->arguments) {
    if (!a.type.tensor_like()) continue;
    const bool writes = !a.alias.empty() && a.alias.back() == '!';
    written.insert(written.end(), a.type.tensor_list() ? in_lists : 1, writes);
  }
  return written;
}

bool is_out_operator(const Operator& op) {
  if (!op.schema) return false;
  const auto parsed = parse_function_schema(op.schema->text, {true});
  const auto* schema = std::get_if<FunctionSchema>(&parsed);
  if (!schema) return false;
  for (const auto& a : schema->arguments)
    if (a.kwarg_only && a.type.tensor_like() && !a.alias.empty() && a.alias.back() == '!') return true;
  return false;
}

bool is_generated_autograd_kernel(const Row& row) {
  return row.rule != Rule::BackendFallback && debug_names(row, "/autograd/generated/VariableType");
}

bool add_inference_bump(const Catalogue& cat, const Operator& op, const Row& row, bool writes_inference_tensor,
                        Behaviour& b) {
  if (!writes_inference_tensor || row.rule == Rule::BackendFallback) return false;
  const bool ad_inplace = cat.functionality_of(row.key) == cat.well_known().ad_inplace_or_view &&
                          debug_names(row, "/autograd/generated/ADInplaceOrViewType");
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
