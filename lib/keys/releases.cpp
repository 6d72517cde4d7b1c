// The key catalogue of every supported PyTorch release, one table each.
// Adding a release means adding one table here (and its golden data under
// tests/data/); no code elsewhere names a release.
#include "keys/release_spec.h"

namespace dispatchctl {
namespace {

constexpr bool P = true;  // per-backend functionality (building block)

// Call-time data shared by both releases (§5.3).
void add_common_call_data(ReleaseSpec& r) {
  r.tensor_modifier_keys = {{"conj", "Conjugate"}, {"neg", "Negative"}, {"zerotensor", "ZeroTensor"}};
  r.inference_tensor_removed = {"ADInplaceOrView", "AutogradFunctionality", "AutogradOther",
                                "AutogradNestedTensor"};
  r.inference_mode_tls_unincluded = {"ADInplaceOrView"};
  r.inference_mode_tls_excluded = {"AutogradFunctionality", "AutogradOther", "AutogradNestedTensor"};
}

ReleaseSpec torch_1_13() {
  ReleaseSpec r;
  r.version = "1.13";
  r.reference_build = "1.13.1 (Debian python3-torch 1.13.1+dfsg-4)";
  r.backends = {"CPU", "CUDA", "HIP", "XLA", "MPS", "IPU", "XPU",
                "HPU", "VE", "Lazy", "Meta", "PrivateUse1", "PrivateUse2", "PrivateUse3"};
  r.functionalities = {
      {"Dense", P, ""}, {"FPGA"}, {"ORT"}, {"Vulkan"}, {"Metal"},
      {"Quantized", P, "Quantized"}, {"CustomRNGKeyId"}, {"MkldnnCPU"},
      {"Sparse", P, "Sparse"}, {"SparseCsrCPU"}, {"SparseCsrCUDA"},
      {"NestedTensor", P, "NestedTensor"}, {"BackendSelect"}, {"Python"}, {"Fake"},
      {"FuncTorchDynamicLayerBackMode"}, {"Functionalize"}, {"Named"}, {"Conjugate"},
      {"Negative"}, {"ZeroTensor"}, {"ADInplaceOrView"}, {"AutogradOther"},
      {"AutogradFunctionality", P, "Autograd"}, {"AutogradNestedTensor"}, {"Tracer"},
      {"AutocastCPU"}, {"AutocastXPU"}, {"AutocastCUDA"}, {"FuncTorchBatched"},
      {"FuncTorchVmapMode"}, {"Batched"}, {"VmapMode"}, {"FuncTorchGradWrapper"},
      {"DeferredInit"}, {"PythonTLSSnapshot"}, {"FuncTorchDynamicLayerFrontMode"},
      {"TESTING_ONLY_GenericWrapper"}, {"TESTING_ONLY_GenericMode"}, {"PythonDispatcher"}};
  r.aliases = {"Autograd", "CompositeImplicitAutograd", "CompositeImplicitAutogradNestedTensor",
               "CompositeExplicitAutograd", "CompositeExplicitAutogradNonFunctional"};
  r.placeholder_word = "Unknown";
  r.autogradother_functionalities = {"FPGA", "ORT", "Vulkan", "Metal", "SparseCsrCPU",
                                     "SparseCsrCUDA", "CustomRNGKeyId", "MkldnnCPU",
                                     "Sparse", "Quantized"};
  r.non_functional_excluded_functionalities = {"Sparse"};
  r.non_functional_excluded_backends = {"XLA", "Lazy"};
  r.backends_with_autograd_other = {"HIP", "VE"};
  r.autograd_keys_without_backend_set = {"AutogradHIP", "AutogradVE"};
  r.python_parseable_names =
      "Undefined Dense FPGA ORT Vulkan Metal Quantized CustomRNGKeyId MkldnnCPU Sparse "
      "SparseCsrCPU SparseCsrCUDA NestedTensor BackendSelect Python Fake "
      "FuncTorchDynamicLayerBackMode Functionalize Named Conjugate Negative ZeroTensor "
      "ADInplaceOrView AutogradOther AutogradFunctionality AutogradNestedTensor Tracer "
      "AutocastCPU AutocastXPU AutocastCUDA FuncTorchBatched FuncTorchVmapMode Batched "
      "VmapMode FuncTorchGradWrapper DeferredInit PythonTLSSnapshot "
      "FuncTorchDynamicLayerFrontMode TESTING_ONLY_GenericWrapper TESTING_ONLY_GenericMode "
      "PythonDispatcher Autograd CompositeImplicitAutograd "
      "CompositeImplicitAutogradNestedTensor CompositeExplicitAutograd "
      "CompositeExplicitAutogradNonFunctional "
      "CPU CUDA HIP XLA MPS IPU XPU HPU VE Lazy Meta PrivateUse1 PrivateUse2 PrivateUse3 "
      "QuantizedCPU QuantizedCUDA QuantizedXPU SparseCPU SparseCUDA SparseHIP SparseXPU "
      "SparseVE NestedTensorCPU NestedTensorCUDA AutogradCPU AutogradCUDA AutogradXLA "
      "AutogradMPS AutogradIPU AutogradXPU AutogradHPU AutogradLazy AutogradMeta "
      "AutogradPrivateUse1 AutogradPrivateUse2 AutogradPrivateUse3";
  r.autocast_key_of_backend = {{"CPU", "AutocastCPU"}, {"XPU", "AutocastXPU"},
                               {"CUDA", "AutocastCUDA"}, {"XLA", "AutocastCUDA"}};
  r.default_tls_included = {"BackendSelect", "ADInplaceOrView"};
  r.default_tls_excluded = {"AutocastCPU", "AutocastXPU", "AutocastCUDA"};
  r.override_warning_once = false;
  r.fallthrough_mask_after_tls = false;
  // Verified with torch._C._dispatch_keys on 1.13.1 (cuda/xla/mps/privateuse1 from
  // DispatchKeySet.cpp's backend -> autograd/autocast tables).
  r.tensor_presets = {
      {"cpu", {"CPU", "ADInplaceOrView", "AutogradCPU", "AutocastCPU"}},
      {"meta", {"Meta", "ADInplaceOrView", "AutogradMeta"}},
      {"cuda", {"CUDA", "ADInplaceOrView", "AutogradCUDA", "AutocastCUDA"}},
      {"xla", {"XLA", "ADInplaceOrView", "AutogradXLA", "AutocastCUDA"}},
      {"mps", {"MPS", "ADInplaceOrView", "AutogradMPS"}},
      {"privateuse1", {"PrivateUse1", "ADInplaceOrView", "AutogradPrivateUse1"}},
      {"sparse_cpu", {"SparseCPU", "ADInplaceOrView", "AutogradCPU", "AutocastCPU"}},
      {"sparse_csr_cpu", {"SparseCsrCPU", "ADInplaceOrView", "AutogradOther"}},
      {"quantized_cpu", {"QuantizedCPU", "ADInplaceOrView", "AutogradCPU", "AutocastCPU"}},
      {"mkldnn_cpu", {"MkldnnCPU", "ADInplaceOrView", "AutogradOther"}},
      {"nested_cpu",
       {"NestedTensorCPU", "ADInplaceOrView", "AutogradCPU", "AutogradNestedTensor", "AutocastCPU"}}};
  add_common_call_data(r);
  r.ambiguous_assert_at = "\"./aten/src/ATen/core/boxing/KernelFunction.cpp\":23";  // recorded on 1.13.1
  r.ambiguous_autogradother_hint =
      "If you only want to run inference instead of training, add `c10::InferenceMode mode;` "
      "before model.forward(). Note this guard is only available in C++ but not Python at present.";
  return r;
}

ReleaseSpec torch_2_14() {
  ReleaseSpec r;
  r.version = "2.14";
  r.reference_build = "2.14.1 (Debian python3-torch 2.14.1+dfsg-1)";
  r.backends = {"CPU", "CUDA", "HIP", "XLA", "MPS", "IPU", "XPU", "HPU",
                "VE", "Lazy", "MTIA", "MAIA", "PrivateUse1", "PrivateUse2", "PrivateUse3", "Meta"};
  r.functionalities = {
      {"Dense", P, ""}, {"FPGA"}, {"Vulkan"}, {"Metal"}, {"Quantized", P, "Quantized"},
      {"CustomRNGKeyId"}, {"MkldnnCPU"}, {"Sparse", P, "Sparse"},
      {"SparseCsr", P, "SparseCsr"}, {"NestedTensor", P, "NestedTensor"},
      {"BackendSelect"}, {"Fake"}, {"Python"}, {"FuncTorchDynamicLayerBackMode"},
      {"Functionalize"}, {"Conjugate"}, {"Negative"}, {"ZeroTensor"}, {"ADInplaceOrView"},
      {"AutogradOther"}, {"AutogradFunctionality", P, "Autograd"}, {"AutogradNestedTensor"},
      {"Tracer"}, {"AutocastCPU"}, {"AutocastMTIA"}, {"AutocastMAIA"}, {"AutocastXPU"},
      {"AutocastIPU"}, {"AutocastHPU"}, {"AutocastXLA"}, {"AutocastMPS"}, {"AutocastCUDA"},
      {"AutocastPrivateUse1"}, {"FuncTorchBatched"}, {"BatchedNestedTensor"},
      {"FuncTorchVmapMode"}, {"Batched"}, {"VmapMode"}, {"FuncTorchGradWrapper"},
      {"DeferredInit"}, {"PythonTLSSnapshot"}, {"FuncTorchDynamicLayerFrontMode"},
      {"TESTING_ONLY_GenericWrapper"}, {"TESTING_ONLY_GenericMode"}, {"PreDispatch"},
      {"PythonDispatcher"}};
  r.aliases = {"Autograd",
               "CompositeImplicitAutograd",
               "FuncTorchBatchedDecomposition",
               "CompositeImplicitAutogradNestedTensor",
               "CompositeExplicitAutograd",
               "CompositeExplicitAutogradNonFunctional"};
  r.placeholder_word = "Undefined";
  r.autogradother_functionalities = {"FPGA",      "Vulkan",   "Metal",     "CustomRNGKeyId",
                                     "MkldnnCPU", "Sparse",   "SparseCsr", "Quantized"};
  r.non_functional_excluded_functionalities = {"Sparse"};
  r.non_functional_excluded_backends = {"XLA", "Lazy"};
  r.backends_with_autograd_other = {"HIP", "VE"};
  r.autograd_keys_without_backend_set = {"AutogradHIP", "AutogradVE", "AutogradMTIA"};
  r.python_parseable_names =
      "Undefined Dense FPGA Vulkan Metal Quantized CustomRNGKeyId MkldnnCPU Sparse SparseCsr "
      "NestedTensor BackendSelect Fake Python FuncTorchDynamicLayerBackMode Functionalize "
      "Conjugate Negative ZeroTensor ADInplaceOrView AutogradOther AutogradFunctionality "
      "AutogradNestedTensor Tracer AutocastCPU AutocastMTIA AutocastMAIA AutocastXPU "
      "AutocastIPU AutocastHPU AutocastXLA AutocastMPS AutocastCUDA AutocastPrivateUse1 "
      "FuncTorchBatched BatchedNestedTensor FuncTorchVmapMode Batched VmapMode "
      "FuncTorchGradWrapper DeferredInit PythonTLSSnapshot FuncTorchDynamicLayerFrontMode "
      "TESTING_ONLY_GenericWrapper TESTING_ONLY_GenericMode PreDispatch PythonDispatcher "
      "Autograd CompositeImplicitAutograd FuncTorchBatchedDecomposition "
      "CompositeImplicitAutogradNestedTensor CompositeExplicitAutograd "
      "CompositeExplicitAutogradNonFunctional "
      "CPU CUDA HIP XLA MPS IPU XPU HPU VE Lazy MTIA MAIA PrivateUse1 PrivateUse2 PrivateUse3 "
      "Meta QuantizedCPU QuantizedCUDA QuantizedXPU QuantizedPrivateUse1 SparseCPU SparseCUDA "
      "SparseHIP SparseMPS SparseXPU SparseVE SparsePrivateUse1 SparseMeta SparseCsrCPU "
      "SparseCsrCUDA SparseCsrHIP SparseCsrMPS SparseCsrXPU SparseCsrVE SparseCsrPrivateUse1 "
      "SparseCsrMeta NestedTensorCPU NestedTensorCUDA NestedTensorXPU NestedTensorHPU "
      "NestedTensorPrivateUse1 NestedTensorMeta AutogradCPU AutogradCUDA AutogradXLA "
      "AutogradMPS AutogradIPU AutogradXPU AutogradHPU AutogradLazy AutogradPrivateUse1 "
      "AutogradPrivateUse2 AutogradPrivateUse3 AutogradMeta";
  r.autocast_key_of_backend = {
      {"CPU", "AutocastCPU"},   {"CUDA", "AutocastCUDA"}, {"XPU", "AutocastXPU"},
      {"IPU", "AutocastIPU"},   {"HPU", "AutocastHPU"},   {"XLA", "AutocastXLA"},
      {"MPS", "AutocastMPS"},   {"MTIA", "AutocastMTIA"}, {"MAIA", "AutocastMAIA"},
      {"PrivateUse1", "AutocastPrivateUse1"}};
  r.default_tls_included = {"BackendSelect", "ADInplaceOrView"};
  r.default_tls_excluded = {"AutocastCPU", "AutocastMTIA", "AutocastMAIA", "AutocastXPU",
                            "AutocastIPU", "AutocastHPU",  "AutocastXLA",  "AutocastMPS",
                            "AutocastCUDA", "AutocastPrivateUse1"};
  r.override_warning_once = true;
  r.override_warning_silent_keys = {"Meta", "MTIA"};
  r.fallthrough_mask_after_tls = true;
  r.tensor_presets = {
      {"cpu", {"CPU", "ADInplaceOrView", "AutogradCPU", "AutocastCPU"}},
      {"meta", {"Meta", "ADInplaceOrView", "AutogradMeta"}},
      {"cuda", {"CUDA", "ADInplaceOrView", "AutogradCUDA", "AutocastCUDA"}},
      {"xla", {"XLA", "ADInplaceOrView", "AutogradXLA", "AutocastXLA"}},
      {"mps", {"MPS", "ADInplaceOrView", "AutogradMPS", "AutocastMPS"}},
      {"privateuse1", {"PrivateUse1", "ADInplaceOrView", "AutogradPrivateUse1", "AutocastPrivateUse1"}},
      {"sparse_cpu", {"SparseCPU", "ADInplaceOrView", "AutogradCPU", "AutocastCPU"}},
      {"sparse_csr_cpu", {"SparseCsrCPU", "ADInplaceOrView", "AutogradCPU", "AutocastCPU"}},
      {"quantized_cpu", {"QuantizedCPU", "ADInplaceOrView", "AutogradCPU", "AutocastCPU"}},
      {"mkldnn_cpu", {"MkldnnCPU", "ADInplaceOrView", "AutogradOther"}},
      {"nested_cpu",
       {"NestedTensorCPU", "ADInplaceOrView", "AutogradCPU", "AutogradNestedTensor", "AutocastCPU"}}};
  r.meta_fallback_error =
      "{op}: attempted to run this operator with Meta tensors, but there was no fake impl or Meta "
      "kernel registered. You may have run into this message while using an operator with PT2 "
      "compilation APIs (torch.compile/torch.export); in order to use this operator with those "
      "APIs you'll need to add a fake impl. Please see the following for next steps:  "
      "https://pytorch.org/tutorials/advanced/custom_ops_landing_page.html";
  // torch/csrc/autograd/autograd_not_implemented_fallback.cpp (warn mode, the default).
  r.autograd_fallback_backward_warning =
      "{op}: an autograd kernel was not registered to the Autograd key(s) but we are trying to "
      "backprop through it. This may lead to silently incorrect behavior. This behavior is "
      "deprecated and will be removed in a future version of PyTorch. If your operator is "
      "differentiable, please ensure you have registered an autograd kernel to the correct "
      "Autograd key (e.g. DispatchKey::Autograd, DispatchKey::CompositeImplicitAutograd). If your "
      "operator is not differentiable, or to squash this warning and use the previous behavior, "
      "please register torch::CppFunction::makeFallthrough() to DispatchKey::Autograd.";
  add_common_call_data(r);
  // From KernelFunction.cpp of recent 2.x sources [unverified on 2.14.1].
  r.ambiguous_autogradother_hint =
      "If you only want to run inference instead of training, in C++, add `c10::InferenceMode "
      "mode;` before model.forward(); in Python, use `torch.inference_mode()` as a context "
      "manager (see https://pytorch.org/docs/stable/generated/"
      "torch.autograd.grad_mode.inference_mode.html).";
  return r;
}

}  // namespace

const std::vector<ReleaseSpec>& known_releases() {
  static const std::vector<ReleaseSpec> releases = {torch_1_13(), torch_2_14()};
  return releases;
}

}  // namespace dispatchctl
