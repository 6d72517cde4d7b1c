#include "table/functionality_kinds.h"

namespace dispatchctl {
namespace {

using K = FunctionalityKind;
// autograd_dispatch_keyset_with_ADInplaceOrView (c10/core/DispatchKeySet.h).
#define DISPATCHCTL_BELOW_AD "AutogradFunctionality AutogradOther AutogradNestedTensor ADInplaceOrView"
constexpr FunctionalityKindRow k_kinds[] = {
    {"AutogradFunctionality", K::Autograd, "autograd kernels (generated VariableType kernels)",
     "AutoDispatchBelowADInplaceOrView", DISPATCHCTL_BELOW_AD, "", ""},
    {"AutogradOther", K::Autograd, "autograd kernels (generated VariableType kernels)",
     "AutoDispatchBelowADInplaceOrView", DISPATCHCTL_BELOW_AD, "", ""},
    {"AutogradNestedTensor", K::Autograd, "autograd kernels (generated VariableType kernels)",
     "AutoDispatchBelowADInplaceOrView", DISPATCHCTL_BELOW_AD, "", ""},
    {"ADInplaceOrView", K::AdInplaceOrView, "ADInplaceOrView kernels", "AutoDispatchBelowADInplaceOrView",
     DISPATCHCTL_BELOW_AD, "", ""},
    {"Conjugate", K::ResolveBit, "the math-bit fallbacks (MathBitsFallback.h)", "", "", "",
     "materialises conjugated inputs and redispatches"},
    {"Negative", K::ResolveBit, "the math-bit fallbacks (MathBitsFallback.h)", "", "", "",
     "materialises negated inputs and redispatches"},
    {"ZeroTensor", K::ResolveBit, "the ZeroTensor fallback", "", "", "", "handles ZeroTensor inputs and redispatches"},
    {"Functionalize", K::Functionalize, "Functionalize kernels and the functionalize fallback",
     "AutoDispatchSkipFunctionalize", "Functionalize", "",
     "functionalizes the call (mutations become functional ops) and calls again"},
    {"Autocast", K::Autocast, "Autocast kernels (autocast_mode.h)", "ExcludeDispatchKeyGuard", "*", "", ""},
    {"BackendSelect", K::BackendSelect, "BackendSelect kernels", "", "", "", ""},
    {"Tracer", K::RedispatchAfter, "the tracer's kernels", "NoTracerDispatchMode", "Tracer", "",
     "records the call for the JIT tracer and redispatches"},
    {"PythonTLSSnapshot", K::RedispatchAfter, "the PythonTLSSnapshot fallback", "", "", "",
     "snapshots Python TLS and redispatches"},
    {"Python", K::Handoff, "", "", "", "Python __torch_dispatch__ (tensor subclass or mode)",
     "hands the call to Python __torch_dispatch__"},
    {"PythonDispatcher", K::Handoff, "", "", "", "the Python dispatcher (torch/_ops.py)",
     "hands the call to the Python dispatcher"},
    {"PreDispatch", K::Handoff, "", "", "", "the Python pre-dispatch tracer", "hands the call to the pre-dispatch tracer"},
    {"Fake", K::Handoff, "", "", "", "fake-tensor handling", ""},
    {"FuncTorchDynamicLayerFrontMode", K::Handoff, "", "", "", "functorch's dynamic layer stack",
     "enters functorch's dynamic layer stack"},
    {"FuncTorchDynamicLayerBackMode", K::Handoff, "", "", "", "functorch's dynamic layer stack",
     "leaves functorch's dynamic layer stack"},
    {"FuncTorchBatched", K::Handoff, "", "", "", "a functorch batching rule",
     "runs the batching fallback (a loop over the batch, with a warning)"},
    {"BatchedNestedTensor", K::Handoff, "", "", "", "a functorch batching rule",
     "runs the nested-tensor batching fallback"},
    {"FuncTorchVmapMode", K::Handoff, "", "", "", "functorch's vmap mode", ""},
    {"Batched", K::Handoff, "", "", "", "a legacy batching rule", "runs the legacy batching fallback"},
    {"VmapMode", K::Handoff, "", "", "", "vmap mode", ""},
    {"FuncTorchGradWrapper", K::Handoff, "", "", "", "functorch's grad wrapper", "unwraps functorch's grad wrappers"},
    {"DeferredInit", K::Handoff, "", "", "", "deferred initialisation", ""},
    // NamedRegistrations.cpp: the fallback is makeNamedNotSupported() (it never
    // redispatches); the operators that support names register fallthroughs.
    {"Named", K::NamedNotSupported, "the Named fallback (makeNamedNotSupported)", "", "", "named-tensor handling",
     "raises: the operator does not support named tensors (only a named tensor's call reaches it)"},
};
#undef DISPATCHCTL_BELOW_AD

}  // namespace

const FunctionalityKindRow* find_kind(std::string_view functionality) {
  for (const auto& k : k_kinds)
    if (k.key == functionality) return &k;
  if (functionality.starts_with("Autocast")) return find_kind("Autocast");
  return nullptr;
}

std::span<const FunctionalityKindRow> functionality_kinds() { return k_kinds; }

}  // namespace dispatchctl
