// The key catalogue of every supported PyTorch release, one table each.
// Adding a release means adding one table here (and its golden data under
// tests/data/); no code elsewhere names a release.
#include "keys/release_spec.h"

namespace dispatchctl {
namespace {

constexpr bool P = true;  // per-backend functionality (building block)

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
  return r;
}

}  // namespace

const std::vector<ReleaseSpec>& known_releases() {
  static const std::vector<ReleaseSpec> releases = {torch_1_13(), torch_2_14()};
  return releases;
}

}  // namespace dispatchctl
