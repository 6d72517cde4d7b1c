#include "trace/behaviour.h"

#include <algorithm>

#include "table/torch_text.h"

namespace dispatchctl {

namespace {

enum class Kind {
  Autograd, AdInplaceOrView, ResolveBit, Functionalize, Autocast, BackendSelect, RedispatchAfter, Handoff
};

// What the kernels and fallbacks of non-backend functionality keys do, by
// key name (same in every release; keys a release lacks never match), with
// the TLS guard each holds while it passes the call on (checked against
// PyTorch's source and live 1.13.1 calls, tests/e2e/test_trace_live.py).
// Release-dependent behaviour (the autograd backend fallback) is ReleaseSpec
// data.
struct KindRow {
  std::string_view key;  // functionality name; "Autocast" stands for every Autocast key
  Kind kind;
  std::string_view kind_words;  // "autograd kernels (generated VariableType)"
  std::string_view guard_name;  // "" = holds no guard
  std::string_view guard_keys;  // space separated; "*" = the row's own key
  std::string_view handler;     // Handoff: who takes over
};
// autograd_dispatch_keyset_with_ADInplaceOrView (c10/core/DispatchKeySet.h).
#define DISPATCHCTL_BELOW_AD "AutogradFunctionality AutogradOther AutogradNestedTensor ADInplaceOrView"
constexpr KindRow k_kinds[] = {
    {"AutogradFunctionality", Kind::Autograd, "autograd kernels (generated VariableType kernels)",
     "AutoDispatchBelowADInplaceOrView", DISPATCHCTL_BELOW_AD, ""},
    {"AutogradOther", Kind::Autograd, "autograd kernels (generated VariableType kernels)",
     "AutoDispatchBelowADInplaceOrView", DISPATCHCTL_BELOW_AD, ""},
    {"AutogradNestedTensor", Kind::Autograd, "autograd kernels (generated VariableType kernels)",
     "AutoDispatchBelowADInplaceOrView", DISPATCHCTL_BELOW_AD, ""},
    {"ADInplaceOrView", Kind::AdInplaceOrView, "ADInplaceOrView kernels", "AutoDispatchBelowADInplaceOrView",
     DISPATCHCTL_BELOW_AD, ""},
    {"Conjugate", Kind::ResolveBit, "the math-bit fallbacks (MathBitsFallback.h)", "", "", ""},
    {"Negative", Kind::ResolveBit, "the math-bit fallbacks (MathBitsFallback.h)", "", "", ""},
    {"ZeroTensor", Kind::ResolveBit, "the ZeroTensor fallback", "", "", ""},
    {"Functionalize", Kind::Functionalize, "Functionalize kernels and the functionalize fallback",
     "AutoDispatchSkipFunctionalize", "Functionalize", ""},
    {"Autocast", Kind::Autocast, "Autocast kernels (autocast_mode.h)", "ExcludeDispatchKeyGuard", "*", ""},
    {"BackendSelect", Kind::BackendSelect, "BackendSelect kernels", "", "", ""},
    {"Tracer", Kind::RedispatchAfter, "the tracer's kernels", "NoTracerDispatchMode", "Tracer", ""},
    {"PythonTLSSnapshot", Kind::RedispatchAfter, "the PythonTLSSnapshot fallback", "", "", ""},
    {"Python", Kind::Handoff, "", "", "", "Python __torch_dispatch__ (tensor subclass or mode)"},
    {"PythonDispatcher", Kind::Handoff, "", "", "", "the Python dispatcher (torch/_ops.py)"},
    {"PreDispatch", Kind::Handoff, "", "", "", "the Python pre-dispatch tracer"},
    {"Fake", Kind::Handoff, "", "", "", "fake-tensor handling"},
    {"FuncTorchDynamicLayerFrontMode", Kind::Handoff, "", "", "", "functorch's dynamic layer stack"},
    {"FuncTorchDynamicLayerBackMode", Kind::Handoff, "", "", "", "functorch's dynamic layer stack"},
    {"FuncTorchBatched", Kind::Handoff, "", "", "", "a functorch batching rule"},
    {"BatchedNestedTensor", Kind::Handoff, "", "", "", "a functorch batching rule"},
    {"FuncTorchVmapMode", Kind::Handoff, "", "", "", "functorch's vmap mode"},
    {"Batched", Kind::Handoff, "", "", "", "a legacy batching rule"},
    {"VmapMode", Kind::Handoff, "", "", "", "vmap mode"},
    {"FuncTorchGradWrapper", Kind::Handoff, "", "", "", "functorch's grad wrapper"},
    {"DeferredInit", Kind::Handoff, "", "", "", "deferred initialisation"},
    {"Named", Kind::Handoff, "", "", "", "named-tensor handling"},
};
#undef DISPATCHCTL_BELOW_AD

const KindRow* find_kind(std::string_view functionality) {
  for (const auto& k : k_kinds)
    if (k.key == functionality) return &k;
  if (functionality.rfind("Autocast", 0) == 0) return find_kind("Autocast");
  return nullptr;
}

// The guard of a kind, resolved for the row's key and the release's keys.
TlsGuard guard_of(const Catalogue& cat, const KindRow& kind, Key row_key) {
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

// The FULL_AFTER mask a kind redispatches with (§5.2).
KeySet redispatch_mask(const Catalogue& cat, const KindRow* kind, Key k) {
  const auto& wk = cat.well_known();
  if (kind && kind->kind == Kind::Autograd) return cat.full_after(wk.autograd_other);
  if (kind && kind->kind == Kind::AdInplaceOrView) return cat.full_after(wk.ad_inplace_or_view);
  return cat.full_after(k);
}

std::string where_from(const Row& row) {
  return row.rule == Rule::BackendFallback ? "the backend fallback" : "the kernel";
}

Behaviour raise(std::string type, std::string message, std::string does) {
  Behaviour b;
  b.action = HopAction::Raise;
  b.error_type = std::move(type);
  b.error = std::move(message);
  b.does = std::move(does);
  return b;
}

Behaviour returns(std::string does, std::string assumed) {
  Behaviour b;
  b.does = std::move(does);
  b.assumed = std::move(assumed);
  return b;
}

Behaviour redispatch(KeySet mask, TlsGuard guard, std::string does, std::string assumed) {
  Behaviour b;
  b.action = HopAction::Redispatch;
  b.mask = mask;
  b.guard = std::move(guard);
  b.does = std::move(does);
  b.assumed = std::move(assumed);
  return b;
}

Behaviour fresh_call(TlsGuard guard, std::string does, std::string assumed) {
  Behaviour b;
  b.action = HopAction::FreshCall;
  b.guard = std::move(guard);
  b.does = std::move(does);
  b.assumed = std::move(assumed);
  return b;
}

std::string assert_prefix(std::string_view at) {
  return "0 INTERNAL ASSERT FAILED at " +
         (at.empty() ? std::string("\"./aten/src/ATen/core/boxing/KernelFunction.cpp\"") : std::string(at)) +
         ", please report a bug to PyTorch. ";
}

bool is_backend_row(const Catalogue& cat, Key k) {
  return k == k_undefined || cat.is_backend_dispatch_key(k) ||
         cat.functionality_of(k) == cat.well_known().nested_tensor;
}

// A manifest kernel's "then" (docs/manifest-format.md): the declared action,
// under the TLS guard its kind holds.
Behaviour declared_behaviour(const Catalogue& cat, const Row& row, const KindRow* kind) {
  const Key k = row.key;
  const KernelThen then = row.kernel->then;
  static constexpr std::string_view names[] = {"", "return", "redispatch", "call", "decompose", "raise"};
  const std::string assumed = "declared in the manifest (\"then\": \"" +
                              std::string(names[static_cast<int>(then)]) + "\")";
  TlsGuard guard = kind ? guard_of(cat, *kind, k) : TlsGuard{};
  Behaviour b;
  switch (then) {
    case KernelThen::Default:
    case KernelThen::Return: b = returns("the kernel computes the result and returns", assumed); break;
    case KernelThen::Decompose:
      b = returns("the kernel runs other operators (a decomposition); their calls dispatch afresh "
                  "and are not traced", assumed);
      break;
    case KernelThen::Raise:
      b = raise("an error", "the kernel raises (its message is its own)", "the kernel raises");
      b.assumed = assumed;
      break;
    case KernelThen::Redispatch:
      if (is_backend_row(cat, k)) {
        b = returns("the kernel would pass the call on, but " + cat.name(k) +
                        " is a backend row: nothing is below it, so it returns", assumed);
        break;
      }
      b = redispatch(redispatch_mask(cat, kind, k), guard,
                     "the kernel passes the call on with ks & " +
                         std::string(kind && kind->kind == Kind::Autograd ? "after_autograd_keyset"
                                                                           : "FULL_AFTER(" + cat.name(k) + ")"),
                     assumed);
      break;
    case KernelThen::Call:
      // A fresh call needs a guard that keeps it from coming back here.
      if (guard.name.empty()) guard = {"ExcludeDispatchKeyGuard(" + cat.name(k) + ")", cat.bit(k), cat.name(k)};
      b = fresh_call(guard, "the kernel calls the operator again from the top (a fresh call: the key "
                            "set is recomputed from the tensors and the TLS)", assumed);
      break;
  }
  b.declared = true;
  return b;
}

// Default for the autograd rows: VariableType-like kernels hold
// AutoDispatchBelowADInplaceOrView; the backend fallback is release data.
Behaviour autograd_behaviour(const Registry& registry, const Operator& op, const Row& row,
                             const KindRow& kind, bool grad_mode) {
  const Catalogue& cat = registry.catalogue();
  const KeySet mask = cat.full_after(cat.well_known().autograd_other);
  if (row.rule != Rule::BackendFallback)
    return redispatch(mask, guard_of(cat, kind, row.key),
                      std::string("the kernel ") +
                          (grad_mode ? "records autograd history" : "records no history (no_grad)") +
                          " and redispatches with ks & after_autograd_keyset",
                      "default for " + std::string(kind.kind_words));
  const std::string_view warning = cat.spec().autograd_fallback_backward_warning;
  if (warning.empty())
    return redispatch(mask, {}, "the autograd fallback redispatches with ks & after_autograd_keyset",
                      "default for PyTorch " + std::string(cat.version()) + "'s autograd fallback");
  Behaviour b = redispatch(
      mask, {},
      "the autograd-not-implemented fallback: " + op.name +
          " has no autograd kernel here, so the forward runs (redispatch with ks & "
          "after_autograd_keyset, no TLS guard) but records no real gradient formula",
      "PyTorch " + std::string(cat.version()) + "'s autograd backend fallback (release data)");
  std::string text(warning);
  text.replace(text.find("{op}"), 4, op.name);
  b.consequence = "gradients are missing: if an input requires grad, backward warns \"" + text +
                  "\" and the inputs get no gradient; fix: register a kernel at Autograd (or " +
                  cat.name(row.key) + ", or CompositeImplicitAutograd) for " + op.name;
  return b;
}

}  // namespace

std::string missing_row_message(const Registry& registry, const Operator& op,
                                const LiveTable& live, Key key) {
  const Catalogue& cat = registry.catalogue();
  std::string list = "[";
  for (Key k : live.available_keys()) list += (list.size() > 1 ? ", " : "") + cat.name(k);
  list += "]";
  std::string table;
  append_torch_table(table, cat, live.computed);
  if (key == k_undefined)
    return "There were no tensor arguments to this function (e.g., you passed an empty list of "
           "Tensors), but no fallback function is registered for schema " + op.name +
           ".  This usually means that this function requires a non-empty list of Tensors, or "
           "that you (the operator writer) forgot to register a fallback function.  Available "
           "functions are " + list + ".\n\n" + table;
  return "Could not run '" + op.name + "' with arguments from the '" + cat.name(key) +
         "' backend. This could be because the operator doesn't exist for this backend, or was "
         "omitted during the selective/custom build process (if using custom build). If you are "
         "a Facebook employee using PyTorch on mobile, please visit https://fburl.com/ptmfixes "
         "for possible resolutions. '" + op.name + "' is only available for these backends: " +
         list + ".\n\n" + table;
}


namespace {
Behaviour behaviour_of_kernel(const Registry& registry, const Operator& op, const Row& row,
                              bool grad_mode);
}  // namespace

Behaviour behaviour_of(const Registry& registry, const Operator& op, const LiveTable& live,
                       const Row& row, bool grad_mode) {
  const Key k = row.key;

  Behaviour b = row.valid() ? behaviour_of_kernel(registry, op, row, grad_mode)
                            : raise("NotImplementedError", missing_row_message(registry, op, live, k),
                                    "no kernel: PyTorch reports the missing row");
  if (b.assumed.empty()) b.assumed = "what PyTorch's dispatcher does with this row";
  return b;
}

namespace {

Behaviour behaviour_of_kernel(const Registry& registry, const Operator& op, const Row& row,
                              bool grad_mode) {
  const Catalogue& cat = registry.catalogue();
  const ReleaseSpec& spec = cat.spec();
  const Key k = row.key;
  const Key f = cat.functionality_of(k);
  if (row.rule == Rule::AmbiguousAutogradOther) {
    std::string state;
    append_torch_state(state, cat, op);
    return raise("RuntimeError",
                 assert_prefix(spec.ambiguous_assert_at) + op.name +
                     " has kernels registered to both CompositeImplicitAutograd and a backend "
                     "mapped to AutogradOther. This makes the backend kernel unreachable; the "
                     "dispatcher will always prefer the CompositeImplicitAutograd lowering (see "
                     "Note [Ambiguity in AutogradOther kernel]). If you want to override "
                     "CompositeImplicitAutograd, please open an issue to request a dedicated "
                     "Autograd dispatch key for the backend.\n" +
                     std::string(spec.ambiguous_autogradother_hint) +
                     "\nCanonical state\n~~~~~~~~~~~\n" + state + "\n\n",
                 "the ambiguous AutogradOther kernel always raises");
  }
  if (row.fallthrough())
    // Only reachable where no bit can mask it: Undefined, or a redispatch (§9.1).
    return raise("RuntimeError",
                 assert_prefix(spec.fallthrough_assert_at) +
                     "fallthrough_kernel was executed but it should have been short-circuited by "
                     "the dispatcher. This could occur if you registered a fallthrough kernel as "
                     "a override for a specific operator (as opposed to a backend fallback); this "
                     "is NOT currently supported, and we do not intend to add support for it in "
                     "the near future.  If you do find yourself in need of this, let us know in "
                     "the bug tracker.",
                 "a fallthrough kernel reached without a bit to mask it is called, and asserts");
  const std::string& name = cat.name(f);
  const KindRow* kind = k == k_undefined ? nullptr : find_kind(name);
  if (row.rule != Rule::BackendFallback && row.kernel && row.kernel->then != KernelThen::Default)
    return declared_behaviour(cat, row, kind);
  if (row.rule == Rule::CompositeImplicitAutograd || row.rule == Rule::CompositeImplicitAutogradNestedTensor)
    return returns("composite kernel: runs its decomposition, whose inner operator calls dispatch "
                   "afresh (not traced)",
                   "default for CompositeImplicitAutograd kernels");
  if (k == k_undefined) return returns("runs with no backend key left and returns", "default for Undefined");
  if (row.rule == Rule::BackendFallback && k == cat.well_known().meta && !spec.meta_fallback_error.empty()) {
    std::string text(spec.meta_fallback_error);
    text.replace(text.find("{op}"), 4, op.name);
    Behaviour b = raise("NotImplementedError", text, "the Meta backend fallback raises");
    b.assumed = "PyTorch " + std::string(cat.version()) + "'s Meta backend fallback (release data)";
    return b;
  }
  if (is_backend_row(cat, k))
    return returns(where_from(row) + " computes the result and returns", "default for backend kernels");
  if (!kind) {
    Behaviour b;
    b.action = HopAction::Handoff;
    b.does = where_from(row) + " at " + name + " is not modelled by dispatchctl; the trace stops";
    b.assumed = "no default for " + name;
    return b;
  }
  const std::string assumed = "default for " + std::string(kind->kind_words);
  switch (kind->kind) {
    case Kind::Autograd: return autograd_behaviour(registry, op, row, *kind, grad_mode);
    case Kind::AdInplaceOrView:
      return redispatch(redispatch_mask(cat, kind, k), guard_of(cat, *kind, k),
                        where_from(row) + " bumps versions of in-place/view outputs and redispatches "
                                          "with ks & after_ADInplaceOrView_keyset",
                        assumed);
    case Kind::ResolveBit: {
      if (row.rule != Rule::BackendFallback)
        return returns("the operator's own " + name + " kernel computes the result and returns",
                       "default for an operator's own " + name + " kernel");
      Behaviour b = redispatch(cat.full_after(k), {},
                               "the fallback materialises " + name +
                                   " inputs (the bit is resolved) and redispatches with ks & "
                                   "FULL_AFTER(" + name + ")",
                               assumed);
      b.resolves = k;
      return b;
    }
    case Kind::Functionalize:
      return fresh_call(guard_of(cat, *kind, k),
                        where_from(row) + " unwraps the inputs and calls the operator again (a fresh "
                                          "call: the key set is recomputed and upper kernels not "
                                          "excluded by a guard run again)",
                        assumed);
    case Kind::Autocast:
      return fresh_call(guard_of(cat, *kind, k),
                        where_from(row) + " casts the inputs and calls the operator again (a fresh "
                                          "call, not a redispatch)",
                        assumed);
    case Kind::BackendSelect: {
      Behaviour b = redispatch(cat.full_after(k), {},
                               "the kernel picks the backend from its device/dtype/layout "
                               "arguments (modelled as the call's highest backend, else CPU, "
                               "dense) and redispatches with TLS applied & FULL_AFTER(BackendSelect)",
                               assumed);
      b.backend_select = true;
      return b;
    }
    case Kind::RedispatchAfter:
      return redispatch(cat.full_after(k), guard_of(cat, *kind, k),
                        where_from(row) + " redispatches with ks & FULL_AFTER(" + name + ")", assumed);
    case Kind::Handoff: {
      Behaviour b;
      b.action = HopAction::Handoff;
      b.does = where_from(row) + " hands the call to " + std::string(kind->handler) +
               "; what runs next is Python/functorch code dispatchctl does not model";
      b.assumed = "default for " + name;
      return b;
    }
  }
  return {};
}

}  // namespace

}  // namespace dispatchctl
