// One table per release; each entry is confirmed by the ablations of
// torchgen-rules.md §5 against the release's real registry.
#include "torchgen/release_rules.h"

namespace dispatchctl::torchgen {
namespace {

const std::set<std::string> k_composites = {
    "CompositeImplicitAutograd", "CompositeImplicitAutogradNestedTensor",
    "CompositeExplicitAutograd", "CompositeExplicitAutogradNonFunctional"};

std::set<std::string> with_composites(std::set<std::string> keys) {
  keys.insert(k_composites.begin(), k_composites.end());
  return keys;
}

const std::set<std::string> k_fields = {
    "func", "variants", "dispatch", "structured", "structured_delegate", "structured_inherits",
    "precomputed", "autogen", "ufunc_inner_loop", "manual_kernel_registration",
    "manual_cpp_binding", "python_module", "category_override", "device_guard", "device_check",
    "cpp_no_default_args", "use_const_ref_for_mutable_tensors", "tags"};

// tools/autograd/gen_trace_type.py MANUAL_AUTOGRAD_AND_TRACER (= MANUAL_AUTOGRAD = MANUAL_TRACER).
const std::set<std::string> k_manual_autograd = {
    "options", "data", "set_data", "is_leaf", "output_nr", "_version", "retain_grad", "_backward",
    "requires_grad_", "resize_", "resize_as_", "detach", "detach_", "copy_", "_fw_primal",
    "_make_dual"};

// gen_inplace_or_view_type.py VIEW_FUNCTIONS (+ ..._WITH_METADATA_CHANGE) ∪ RETURNS_VIEWS_OF_INPUT.
std::set<std::string> view_functions(std::initializer_list<std::string> extra) {
  std::set<std::string> v = {
      "numpy_T", "alias", "as_strided", "diagonal", "expand", "permute", "select", "slice", "split",
      "split_with_sizes", "squeeze", "t", "transpose", "unfold", "unsqueeze", "flatten", "view",
      "unbind", "_indices", "_values", "indices", "values", "crow_indices", "col_indices",
      "ccol_indices", "row_indices", "sparse_coo_tensor_with_dims_and_tensors", "_reshape_alias",
      "view_as_complex", "view_as_real", "_conj", "_neg_view", "_nested_view_from_buffer",
      "chunk", "detach", "contiguous", "reshape", "reshape_as", "expand_as", "view_as", "real",
      "imag", "narrow", "movedim", "tensor_split", "swapdims", "swapaxes", "mT", "mH", "adjoint",
      "matrix_H"};
  v.insert(extra.begin(), extra.end());
  return v;
}

const std::set<std::string> k_mutable_not_functionalized = {
    "adaptive_avg_pool3d_backward.grad_input", "_slow_conv2d_backward.grad_input",
    "_cummax_helper", "_cummin_helper", "polygamma_", "record_stream", "resize_"};

std::set<std::string> plus(std::set<std::string> base, std::initializer_list<std::string> extra) {
  base.insert(extra.begin(), extra.end());
  return base;
}

const std::vector<ReleaseRules>& all_rules() {
  static const std::vector<ReleaseRules> rules = [] {
    std::vector<ReleaseRules> r;
    ReleaseRules v2;
    v2.version = "2.14";
    v2.always_compiled_keys = with_composites({"Meta", "SparseMeta", "SparseCsrMeta", "QuantizedMeta",
                                               "NestedTensorMeta", "NestedTensorHPU", "ZeroTensor"});
    v2.backend_keys = {
        {"CPU", {"CPU", "SparseCPU", "SparseCsrCPU", "MkldnnCPU", "QuantizedCPU", "NestedTensorCPU"}},
        {"CUDA", {"CUDA", "SparseCUDA", "SparseCsrCUDA", "QuantizedCUDA", "NestedTensorCUDA"}},
        {"XPU", {"XPU", "SparseXPU", "SparseCsrXPU", "NestedTensorXPU"}},
        {"MPS", {"MPS", "SparseMPS", "SparseCsrMPS"}},
        {"MTIA", {"MTIA"}},
    };
    v2.gen_py_ignored_keys = {"MPS", "XPU"};
    v2.structured_keys = {"CPU", "CUDA", "MPS", "XPU", "MTIA"};
    v2.ufunc_keys = {"CPU", "CUDA"};
    v2.known_fields = k_fields;
    v2.tags_may_be_list = true;
    v2.set_is_not_a_view = true;
    v2.cia_groups_generate_if_core = true;
    v2.prefer_mutable_base = true;
    v2.out_ops_not_grouped = {"adaptive_avg_pool3d_backward.grad_input", "_slow_conv2d_backward.grad_input"};
    v2.inplace_ops_not_grouped = {"polygamma_"};
    v2.inplace_view_not_views = {"resize_", "resize_as_"};
    v2.functionalize_handwritten_groups = {"lift", "resize_"};
    v2.functionalize_handwritten_ops = {"lift_fresh"};
    v2.functionalize_skipped_groups = {"set_.source_Tensor"};
    v2.mutable_ops_not_using_functionalization =
        plus(k_mutable_not_functionalized,
             {"resize_as_", "_fill_mem_eff_dropout_mask_", "_flash_attention_forward_no_dropout_inplace"});
    v2.manual_autograd = k_manual_autograd;
    v2.view_functions = view_functions({"slice_inverse", "_test_autograd_multiple_dispatch_view",
                                        "_nested_get_values", "_nested_view_from_jagged"});
    r.push_back(v2);

    ReleaseRules v1 = v2;
    v1.version = "1.13";
    v1.always_compiled_keys =
        with_composites({"Meta", "SparseMeta", "QuantizedMeta", "NestedTensorMeta", "ZeroTensor"});
    v1.backend_keys.erase("XPU");
    v1.backend_keys.erase("MTIA");
    v1.backend_keys["MPS"] = {"MPS"};
    v1.gen_py_ignored_keys = {"MPS"};
    v1.structured_keys = {"CPU", "CUDA", "MPS"};
    v1.tags_may_be_list = false;
    v1.set_is_not_a_view = false;
    v1.cia_groups_generate_if_core = false;
    v1.prefer_mutable_base = false;
    v1.inplace_view_not_views = {"resize_"};
    v1.functionalize_all_cia = true;
    v1.functionalize_skipped_groups = {};
    v1.mutable_ops_not_using_functionalization = k_mutable_not_functionalized;
    v1.backend_select_template_ops = {"is_pinned", "_pin_memory"};
    v1.view_functions = view_functions({});
    v1.dimname_prints_as_str = true;
    r.push_back(v1);
    return r;
  }();
  return rules;
}

}  // namespace

const ReleaseRules* rules_for_release(std::string_view version) {
  for (const auto& r : all_rules())
    if (version.substr(0, r.version.size()) == r.version &&
        (version.size() == r.version.size() || version[r.version.size()] == '.'))
      return &r;
  return nullptr;
}

std::string supported_rule_releases() {
  std::string out;
  for (const auto& r : all_rules()) out += (out.empty() ? "" : ", ") + std::string(r.version) + ".x";
  return out;
}

}  // namespace dispatchctl::torchgen
