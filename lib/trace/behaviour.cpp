#include "trace/behaviour.h"

#include "render/torch_text.h"

namespace dispatchctl {

namespace {

enum class Kind { AdInplaceOrView, ResolveBit, Functionalize, BackendSelect, RedispatchAfter, Handoff };

// Behaviour of the kernels and fallbacks of non-backend functionality keys,
// by key name (same in every release; keys a release lacks never match).
struct KeyBehaviour {
  std::string_view key;
  Kind kind;
  std::string_view handler;  // Handoff: who takes over
};
constexpr KeyBehaviour k_behaviours[] = {
    {"ADInplaceOrView", Kind::AdInplaceOrView, ""},
    {"Conjugate", Kind::ResolveBit, ""},
    {"Negative", Kind::ResolveBit, ""},
    {"ZeroTensor", Kind::ResolveBit, ""},
    {"Functionalize", Kind::Functionalize, ""},
    {"BackendSelect", Kind::BackendSelect, ""},
    {"Tracer", Kind::RedispatchAfter, ""},
    {"PythonTLSSnapshot", Kind::RedispatchAfter, ""},
    {"Python", Kind::Handoff, "Python __torch_dispatch__ (tensor subclass or mode)"},
    {"PythonDispatcher", Kind::Handoff, "the Python dispatcher (torch/_ops.py)"},
    {"PreDispatch", Kind::Handoff, "the Python pre-dispatch tracer"},
    {"Fake", Kind::Handoff, "fake-tensor handling"},
    {"FuncTorchDynamicLayerFrontMode", Kind::Handoff, "functorch's dynamic layer stack"},
    {"FuncTorchDynamicLayerBackMode", Kind::Handoff, "functorch's dynamic layer stack"},
    {"FuncTorchBatched", Kind::Handoff, "a functorch batching rule"},
    {"BatchedNestedTensor", Kind::Handoff, "a functorch batching rule"},
    {"FuncTorchVmapMode", Kind::Handoff, "functorch's vmap mode"},
    {"Batched", Kind::Handoff, "a legacy batching rule"},
    {"VmapMode", Kind::Handoff, "vmap mode"},
    {"FuncTorchGradWrapper", Kind::Handoff, "functorch's grad wrapper"},
    {"DeferredInit", Kind::Handoff, "deferred initialisation"},
    {"Named", Kind::Handoff, "named-tensor handling"},
};

const KeyBehaviour* find_behaviour(std::string_view name) {
  for (const auto& b : k_behaviours)
    if (b.key == name) return &b;
  return nullptr;
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

Behaviour redispatch(KeySet mask, std::string does) {
  Behaviour b;
  b.action = HopAction::Redispatch;
  b.mask = mask;
  b.does = std::move(does);
  return b;
}

std::string assert_prefix(std::string_view at) {
  return "0 INTERNAL ASSERT FAILED at " +
         (at.empty() ? std::string("\"./aten/src/ATen/core/boxing/KernelFunction.cpp\"") : std::string(at)) +
         ", please report a bug to PyTorch. ";
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

Behaviour behaviour_of(const Registry& registry, const Operator& op, const LiveTable& live,
                       const Row& row, bool grad_mode) {
  const Catalogue& cat = registry.catalogue();
  const ReleaseSpec& spec = cat.spec();
  const auto& wk = cat.well_known();
  const Key k = row.key;
  const Key f = cat.functionality_of(k);

  if (!row.valid())
    return raise("NotImplementedError", missing_row_message(registry, op, live, k),
                 "no kernel: PyTorch reports the missing row");
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
                 assert_prefix("") +
                     "fallthrough_kernel was executed but it should have been short-circuited by "
                     "the dispatcher. This could occur if you registered a fallthrough kernel as "
                     "a override for a specific operator (as opposed to a backend fallback); this "
                     "is NOT currently supported, and we do not intend to add support for it in "
                     "the near future.  If you do find yourself in need of this, let us know in "
                     "the bug tracker.",
                 "a fallthrough kernel reached without a bit to mask it is called, and asserts");
  if (row.rule == Rule::CompositeImplicitAutograd ||
      row.rule == Rule::CompositeImplicitAutogradNestedTensor) {
    Behaviour b;
    b.does = "composite kernel: runs its decomposition, whose inner operator calls dispatch "
             "afresh (not traced)";
    return b;
  }
  if (k == k_undefined) {
    Behaviour b;
    b.does = "runs with no backend key left and returns";
    return b;
  }
  if (row.rule == Rule::BackendFallback && k == wk.meta && !spec.meta_fallback_error.empty()) {
    std::string text(spec.meta_fallback_error);
    text.replace(text.find("{op}"), 4, op.name);
    return raise("NotImplementedError", text, "the Meta backend fallback raises");
  }
  if (cat.is_backend_dispatch_key(k) || f == wk.nested_tensor) {
    Behaviour b;
    b.does = where_from(row) + " computes the result and returns";
    return b;
  }
  if (f == wk.autograd_functionality || f == wk.autograd_other || f == wk.autograd_nested_tensor) {
    return redispatch(cat.full_after(wk.autograd_other),
                      where_from(row) + (grad_mode ? " records autograd history" : " records no history (no_grad)") +
                          " and redispatches with ks & after_autograd_keyset");
  }
  const std::string& name = cat.name(f);
  if (name.rfind("Autocast", 0) == 0) {
    Behaviour b;
    b.action = HopAction::FreshCall;
    b.excludes = k;
    b.does = where_from(row) + " casts the inputs and calls the operator again with " + name +
             " excluded from TLS (a fresh call, not a redispatch)";
    return b;
  }
  const KeyBehaviour* kb = find_behaviour(name);
  if (!kb) {
    Behaviour b;
    b.action = HopAction::Handoff;
    b.does = where_from(row) + " at " + name + " is not modelled by dispatchctl; the trace stops";
    return b;
  }
  switch (kb->kind) {
    case Kind::AdInplaceOrView:
      return redispatch(cat.full_after(wk.ad_inplace_or_view),
                        where_from(row) + " bumps versions of in-place/view outputs and redispatches "
                                          "with ks & after_ADInplaceOrView_keyset");
    case Kind::ResolveBit: {
      if (row.rule != Rule::BackendFallback) {
        Behaviour b;
        b.does = "the operator's own " + name + " kernel computes the result and returns";
        return b;
      }
      Behaviour b = redispatch(cat.full_after(k), "the fallback materialises " + name +
                                                     " inputs (the bit is resolved) and redispatches "
                                                     "with ks & FULL_AFTER(" + name + ")");
      b.resolves = k;
      return b;
    }
    case Kind::Functionalize: {
      Behaviour b;
      b.action = HopAction::FreshCall;
      b.excludes = k;
      b.does = where_from(row) + " unwraps the inputs and calls the operator again with "
                                 "Functionalize excluded from TLS (a fresh call: the key set is "
                                 "recomputed and upper kernels run again)";
      return b;
    }
    case Kind::BackendSelect: {
      Behaviour b = redispatch(cat.full_after(k),
                               "the kernel picks the backend from its device/dtype/layout "
                               "arguments (modelled as the call's highest backend, else CPU, "
                               "dense) and redispatches with TLS applied & FULL_AFTER(BackendSelect)");
      b.backend_select = true;
      return b;
    }
    case Kind::RedispatchAfter:
      return redispatch(cat.full_after(k), where_from(row) + " redispatches with ks & FULL_AFTER(" +
                                               name + ")");
    case Kind::Handoff: {
      Behaviour b;
      b.action = HopAction::Handoff;
      b.does = where_from(row) + " hands the call to " + std::string(kb->handler) +
               "; what runs next is Python/functorch code dispatchctl does not model";
      return b;
    }
  }
  return {};
}

}  // namespace dispatchctl
