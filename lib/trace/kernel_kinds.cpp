#include "trace/kernel_kinds.h"

#include <algorithm>
#include <optional>

namespace dispatchctl {

namespace {

// autograd_dispatch_keyset_with_ADInplaceOrView (c10/core/DispatchKeySet.h).
#define DISPATCHCTL_BELOW_AD "AutogradFunctionality AutogradOther AutogradNestedTensor ADInplaceOrView"
constexpr FunctionalityKindRow k_kinds[] = {
    {"AutogradFunctionality", FunctionalityKind::Autograd, "autograd kernels (generated VariableType kernels)",
     "AutoDispatchBelowADInplaceOrView", DISPATCHCTL_BELOW_AD, ""},
    {"AutogradOther", FunctionalityKind::Autograd, "autograd kernels (generated VariableType kernels)",
     "AutoDispatchBelowADInplaceOrView", DISPATCHCTL_BELOW_AD, ""},
    {"AutogradNestedTensor", FunctionalityKind::Autograd, "autograd kernels (generated VariableType kernels)",
     "AutoDispatchBelowADInplaceOrView", DISPATCHCTL_BELOW_AD, ""},
    {"ADInplaceOrView", FunctionalityKind::AdInplaceOrView, "ADInplaceOrView kernels", "AutoDispatchBelowADInplaceOrView",
     DISPATCHCTL_BELOW_AD, ""},
    {"Conjugate", FunctionalityKind::ResolveBit, "the math-bit fallbacks (MathBitsFallback.h)", "", "", ""},
    {"Negative", FunctionalityKind::ResolveBit, "the math-bit fallbacks (MathBitsFallback.h)", "", "", ""},
    {"ZeroTensor", FunctionalityKind::ResolveBit, "the ZeroTensor fallback", "", "", ""},
    {"Functionalize", FunctionalityKind::Functionalize, "Functionalize kernels and the functionalize fallback",
     "AutoDispatchSkipFunctionalize", "Functionalize", ""},
    {"Autocast", FunctionalityKind::Autocast, "Autocast kernels (autocast_mode.h)", "ExcludeDispatchKeyGuard", "*", ""},
    {"BackendSelect", FunctionalityKind::BackendSelect, "BackendSelect kernels", "", "", ""},
    {"Tracer", FunctionalityKind::RedispatchAfter, "the tracer's kernels", "NoTracerDispatchMode", "Tracer", ""},
    {"PythonTLSSnapshot", FunctionalityKind::RedispatchAfter, "the PythonTLSSnapshot fallback", "", "", ""},
    {"Python", FunctionalityKind::Handoff, "", "", "", "Python __torch_dispatch__ (tensor subclass or mode)"},
    {"PythonDispatcher", FunctionalityKind::Handoff, "", "", "", "the Python dispatcher (torch/_ops.py)"},
    {"PreDispatch", FunctionalityKind::Handoff, "", "", "", "the Python pre-dispatch tracer"},
    {"Fake", FunctionalityKind::Handoff, "", "", "", "fake-tensor handling"},
    {"FuncTorchDynamicLayerFrontMode", FunctionalityKind::Handoff, "", "", "", "functorch's dynamic layer stack"},
    {"FuncTorchDynamicLayerBackMode", FunctionalityKind::Handoff, "", "", "", "functorch's dynamic layer stack"},
    {"FuncTorchBatched", FunctionalityKind::Handoff, "", "", "", "a functorch batching rule"},
    {"BatchedNestedTensor", FunctionalityKind::Handoff, "", "", "", "a functorch batching rule"},
    {"FuncTorchVmapMode", FunctionalityKind::Handoff, "", "", "", "functorch's vmap mode"},
    {"Batched", FunctionalityKind::Handoff, "", "", "", "a legacy batching rule"},
    {"VmapMode", FunctionalityKind::Handoff, "", "", "", "vmap mode"},
    {"FuncTorchGradWrapper", FunctionalityKind::Handoff, "", "", "", "functorch's grad wrapper"},
    {"DeferredInit", FunctionalityKind::Handoff, "", "", "", "deferred initialisation"},
    {"Named", FunctionalityKind::Handoff, "", "", "", "named-tensor handling"},
};
#undef DISPATCHCTL_BELOW_AD

}  // namespace

const FunctionalityKindRow* find_kind(std::string_view functionality) {
  for (const auto& k : k_kinds)
    if (k.key == functionality) return &k;
  if (functionality.rfind("Autocast", 0) == 0) return find_kind("Autocast");
  return nullptr;
}

TlsGuard guard_of(const Catalogue& cat, const FunctionalityKindRow& kind, Key row_key) {
  TlsGuard g;
  if (kind.guard_name.empty()) return g;
  g.name = std::string(kind.guard_name);
  std::string_view names = kind.guard_keys;
  while (!names.empty()) {
    const size_t end = std::min(names.find(' '), names.size());
    const std::string_view word = names.substr(0, end);
    names.remove_prefix(std::min(end + 1, names.size()));
    const std::optional<Key> k = word == "*" ? std::optional<Key>(row_key) : cat.find(word);
    if (!k) continue;
    if (word == "*") g.name += "(" + cat.name(row_key) + ")";
    g.excludes = g.excludes | cat.bit(*k);
    g.keys += (g.keys.empty() ? "" : ", ") + cat.name(*k);
  }
  return g;
}

KeySet redispatch_mask(const Catalogue& cat, const FunctionalityKindRow* kind, Key k) {
  const auto& wk = cat.well_known();
  if (kind && kind->kind == FunctionalityKind::Autograd) return cat.full_after(wk.autograd_other);
  if (kind && kind->kind == FunctionalityKind::AdInplaceOrView) return cat.full_after(wk.ad_inplace_or_view);
  return cat.full_after(k);
}

}  // namespace dispatchctl
