#include "trace/behaviour.h"

#include <algorithm>

#include "table/kernel_kind.h"
#include "table/outcome.h"
#include "table/torch_messages.h"
#include "trace/generated_kernels.h"
#include "registry/manifest_names.h"
#include "trace/kernel_kinds.h"

namespace dispatchctl {

namespace {

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

// A return only the kernel's own code can confirm (hand-written or Python):
// the trace says "returns, if the kernel does" and marks itself assumed.
Behaviour returns_if_kernel_does(std::string does, std::string assumed) {
  Behaviour b = returns(std::move(does) + "; returns, if the kernel does (its code decides)", std::move(assumed));
  b.kernel_decides = true;
  return b;
}

Behaviour handoff(std::string does, std::string assumed) {
  Behaviour b;
  b.action = HopAction::Handoff;
  b.does = std::move(does);
  b.assumed = std::move(assumed);
  return b;
}

// "registered at ./torch/csrc/autograd/VariableTypeManual.cpp:333" -> "VariableTypeManual.cpp".
std::string registered_file(std::string_view debug) {
  const KernelPlace place = kernel_place(debug);
  return std::string(place.file.empty() ? debug : place.file_name());
}

bool is_backend_row(const Catalogue& cat, Key k) {
  return k == k_undefined || cat.is_backend_dispatch_key(k) ||
         cat.functionality_of(k) == cat.well_known().nested_tensor;
}

// A manifest kernel's "then" (docs/manifest-format.md): the declared action.
// "redispatch" is the contract's: ks & FULL_AFTER(row) at any row, no guard
// (PyTorch's generated tracing kernels, at::redispatch::op(ks & FULL_AFTER …));
// "autograd" is what the generated autograd kernels do (autograd_behaviour).
Behaviour autograd_kernel_behaviour(const Catalogue& cat, const FunctionalityKindRow& kind, Key k, bool grad_mode,
                                    std::string assumed);

Behaviour declared_behaviour(const Catalogue& cat, const Row& row, const FunctionalityKindRow* kind, bool grad_mode) {
  const Key k = row.key;
  const KernelThen then = row.kernel->then;
  const std::string assumed = "declared in the manifest (\"then\": \"" +
                              std::string(k_then_names[static_cast<int>(then)]) + "\")";
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
      b = redispatch(cat.full_after(k), {},
                     "the kernel passes the call on with ks & FULL_AFTER(" + cat.name(k) + "), holding no guard",
                     assumed);
      break;
    case KernelThen::Autograd: {
      // Declared at any key: what the generated autograd kernels do, with their guard (the table's row).
      const FunctionalityKindRow& generated = *find_kind("AutogradFunctionality");
      b = autograd_kernel_behaviour(cat, kind && kind->kind == FunctionalityKind::Autograd ? *kind : generated, k,
                                    grad_mode, assumed);
      break;
    }
    case KernelThen::Call: {
      // A fresh call needs a guard that keeps it from coming back here.
      TlsGuard guard = kind ? guard_of(cat, *kind, k) : TlsGuard{};
      if (guard.name.empty()) guard = {"ExcludeDispatchKeyGuard(" + cat.name(k) + ")", cat.bit(k), cat.name(k)};
      b = fresh_call(guard, "the kernel calls the operator again from the top (a fresh call: the key "
                            "set is recomputed from the tensors and the TLS)", assumed);
      break;
    }
  }
  b.declared = true;
  return b;
}

Behaviour autograd_kernel_behaviour(const Catalogue& cat, const FunctionalityKindRow& kind, Key k, bool grad_mode,
                                    std::string assumed) {
  return redispatch(cat.full_after(cat.well_known().autograd_other), guard_of(cat, kind, k),
                    std::string("the kernel ") +
                        (grad_mode ? "records autograd history" : "records no history (no_grad)") +
                        " and redispatches with ks & after_autograd_keyset",
                    std::move(assumed));
}

// Default for the autograd rows: VariableType-like kernels hold
// AutoDispatchBelowADInplaceOrView; the backend fallback is release data.
Behaviour autograd_behaviour(const Registry& registry, const Operator& op, const Row& row,
                             const FunctionalityKindRow& kind, const CallFacts& facts) {
  const Catalogue& cat = registry.catalogue();
  const KeySet mask = cat.full_after(cat.well_known().autograd_other);
  if (row.rule != Rule::BackendFallback && row.kernel && is_autograd_not_implemented(*row.kernel) &&
      facts.grad_mode && facts.writes_leaf) {
    // autogradNotImplementedFallbackImpl (torch/csrc/autograd/autograd_not_implemented_fallback.cpp)
    // runs check_inplace on every argument the schema writes.
    Behaviour b = raise("RuntimeError", std::string(k_inplace_leaf_error),
                        "torchgen's autogradNotImplementedFallback() for " + op.name +
                            " runs check_inplace on the arguments it writes, and one is a leaf that requires grad");
    b.assumed = "generated autograd-not-implemented kernels (autograd_not_implemented_fallback.cpp check_inplace)";
    return b;
  }
  if (row.rule != Rule::BackendFallback && row.kernel && is_autograd_not_implemented(*row.kernel)) {
    Behaviour b = redispatch(mask, guard_of(cat, kind, row.key),
                             "torchgen's autogradNotImplementedFallback() for " + op.name +
                                 " (no derivative formula): the forward redispatches with ks & "
                                 "after_autograd_keyset",
                             "default for generated autograd-not-implemented kernels");
    b.consequence = "autograd not implemented: if an input requires grad, backward through " + op.name + " raises";
    return b;
  }
  // VariableTypeUtils.h check_inplace: the generated kernel of an in-place
  // operator refuses a leaf that requires grad while grad mode is on.
  const bool generated = is_generated_autograd_kernel(row);
  if (generated && facts.grad_mode && facts.self_leaf_requires_grad && is_inplace_operator(op.name)) {
    Behaviour b = raise("RuntimeError", std::string(k_inplace_leaf_error),
                        "the generated autograd kernel's check_inplace refuses a leaf that requires grad");
    b.assumed = "generated in-place autograd kernels (VariableTypeUtils.h check_inplace)";
    return b;
  }
  if (auto refusal = out_grad_refusal(registry, op, row, facts)) return *refusal;
  if (row.rule != Rule::BackendFallback) {
    Behaviour b = autograd_kernel_behaviour(cat, kind, row.key, facts.grad_mode,
                                            "default for " + std::string(kind.kind_words));
    if (!generated && row.kernel && !is_autograd_not_implemented(*row.kernel))
      b.may_raise_first = "the hand-written autograd kernel of " + op.name + " (" +
                          registered_file(row.kernel->debug) +
                          ") raises its own error first (its code decides)";
    else if (generated && facts.grad_mode && facts.any_requires_grad)
      b.may_raise_first =
          facts.binding.out_operator && registry.out_grad_checks_known()
              ? "the generated autograd kernel of " + op.name + " may raise its own error first (the release's "
                    "derivatives.yaml gives it no out= check that these arguments fail)"
          : facts.binding.out_operator
              ? "the generated autograd kernel of " + op.name + " first refuses the inputs that require grad (\"" +
                    out_requires_grad_error(op.name) + "\"), as it does when the operator is differentiable "
                    "(torchgen's derivatives.yaml, which this registry does not carry)"
              : "the generated autograd kernel of " + op.name +
                    " raises its own error first while setting up the backward (saving inputs, their sizes or "
                    "strides: a nested tensor has no sizes, a sparse one no strides)";
    return b;
  }
  const std::string warning = autograd_fallback_warning(cat, op.name);
  if (warning.empty())
    return redispatch(mask, {}, "the autograd fallback redispatches with ks & after_autograd_keyset",
                      "default for PyTorch " + std::string(cat.version()) + "'s autograd fallback");
  Behaviour b = redispatch(
      mask, {},
      "the autograd-not-implemented fallback: " + op.name +
          " has no autograd kernel here, so the forward runs (redispatch with ks & "
          "after_autograd_keyset, no TLS guard) but records no real gradient formula",
      "PyTorch " + std::string(cat.version()) + "'s autograd backend fallback (release data)");
  b.consequence = "gradients are missing: if an input requires grad, backward warns \"" + warning +
                  "\" and the inputs get no gradient; fix: register a kernel at Autograd (or " +
                  cat.name(row.key) + ", or CompositeImplicitAutograd) for " + op.name;
  return b;
}

}  // namespace

std::string missing_row_message(const Registry& registry, const Operator& op,
                                const LiveTable& live, Key key) {
  return missing_row_error(registry.catalogue(), op, key, live.computed, live.available_keys(),
                           registry.privateuse1_backend);
}

namespace {

// Rows whose kernel raises whatever the inputs (table/outcome.h: Raises,
// Ambiguous), with PyTorch's text (table/torch_messages.h).
std::optional<Behaviour> raising_behaviour(const Catalogue& cat, const Operator& op, const Row& row) {
  if (!row_known_to_raise(cat, row)) return std::nullopt;
  if (row.rule == Rule::AmbiguousAutogradOther)
    return raise("RuntimeError", ambiguous_autogradother_error(cat, op),
                 "the ambiguous AutogradOther kernel always raises");
  if (row.rule == Rule::BackendFallback) {
    const std::string& name = cat.name(cat.functionality_of(row.key));
    if (const FunctionalityKindRow* kind = find_kind(name); kind && kind->fallback_raises()) {
      Behaviour b = raise("RuntimeError", named_not_supported_error(op.name),
                          "the " + name + " backend fallback " + std::string(kind->fallback_does));
      b.assumed = "the " + std::string(kind->kind_words);
      return b;
    }
    Behaviour b = raise("NotImplementedError", meta_fallback_error(cat, op.name), "the Meta backend fallback raises");
    b.assumed = "PyTorch " + std::string(cat.version()) + "'s Meta backend fallback (release data)";
    return b;
  }
  return std::nullopt;
}

// A fallthrough that runs: only where no bit can mask it, Undefined or a redispatch (§9.1).
Behaviour fallthrough_called(const Catalogue& cat) {
  return raise("RuntimeError", fallthrough_called_error(cat),
               "a fallthrough kernel reached without a bit to mask it is called, and asserts");
}

// What the kernel or fallback of a non-backend functionality does by default.
Behaviour kind_behaviour(const Registry& registry, const Operator& op, const Row& row, const FunctionalityKindRow& kind,
                         const CallFacts& facts) {
  const Catalogue& cat = registry.catalogue();
  const Key k = row.key;
  const std::string& name = cat.name(cat.functionality_of(k));
  const std::string assumed = "default for " + std::string(kind.kind_words);
  switch (kind.kind) {
    case FunctionalityKind::Autograd: return autograd_behaviour(registry, op, row, kind, facts);
    case FunctionalityKind::AdInplaceOrView:
      return redispatch(redispatch_mask(cat, &kind, k), guard_of(cat, kind, k),
                        where_from(row) + " bumps versions of in-place/view outputs and redispatches "
                                          "with ks & after_ADInplaceOrView_keyset",
                        assumed);
    case FunctionalityKind::ResolveBit: {
      if (row.rule != Rule::BackendFallback)
        return returns_if_kernel_does("the operator's own " + name + " kernel computes the result",
                                      "default for an operator's own " + name + " kernel");
      Behaviour b = redispatch(cat.full_after(k), {},
                               "the fallback materialises " + name +
                                   " inputs (the bit is resolved) and redispatches with ks & "
                                   "FULL_AFTER(" + name + ")",
                               assumed);
      b.resolves = k;
      return b;
    }
    case FunctionalityKind::Functionalize:
      return fresh_call(guard_of(cat, kind, k),
                        where_from(row) + " unwraps the inputs and calls the operator again (a fresh "
                                          "call: the key set is recomputed and upper kernels not "
                                          "excluded by a guard run again)",
                        assumed);
    case FunctionalityKind::Autocast: {
      Behaviour b = fresh_call(guard_of(cat, kind, k),
                        where_from(row) + " casts the inputs and calls the operator again (a fresh "
                                          "call, not a redispatch)",
                        assumed);
      if (row.rule != Rule::BackendFallback)
        b.may_raise_first = "the autocast kernel raises its own error first while casting its floating-point "
                            "inputs (at::_to_copy)";
      return b;
    }
    case FunctionalityKind::BackendSelect: {
      Behaviour b = redispatch(cat.full_after(k), {},
                               "the kernel picks the backend from its device/dtype/layout "
                               "arguments (modelled as the call's highest backend, else CPU, "
                               "dense) and redispatches with TLS applied & FULL_AFTER(BackendSelect)",
                               assumed);
      b.backend_select = true;
      return b;
    }
    case FunctionalityKind::RedispatchAfter:
      return redispatch(cat.full_after(k), guard_of(cat, kind, k),
                        where_from(row) + " redispatches with ks & FULL_AFTER(" + name + ")", assumed);
    case FunctionalityKind::NamedNotSupported:  // its fallback raises (raising_behaviour); a kernel there is the operator's
    case FunctionalityKind::Handoff: return handoff(where_from(row) + " hands the call to " + std::string(kind.handler) +
                                           "; what runs next is Python/functorch code dispatchctl does not model",
                                       "default for " + name);
  }
  return {};
}

Behaviour behaviour_of_kernel(const Registry& registry, const Operator& op, const Row& row,
                              const CallFacts& facts) {
  const Catalogue& cat = registry.catalogue();
  const Key k = row.key;
  if (auto raising = raising_behaviour(cat, op, row)) return *raising;
  if (row.fallthrough()) return fallthrough_called(cat);
  const std::string& name = cat.name(cat.functionality_of(k));
  const FunctionalityKindRow* kind = k == k_undefined ? nullptr : find_kind(name);
  if (row.rule != Rule::BackendFallback && row.kernel && row.kernel->then != KernelThen::Default)
    return declared_behaviour(cat, row, kind, facts.grad_mode);
  if (auto generated = generated_composite_behaviour(registry, op, row)) return *generated;
  if (row.rule == Rule::CompositeImplicitAutograd || row.rule == Rule::CompositeImplicitAutogradNestedTensor)
    return returns_if_kernel_does("composite kernel: decomposes; what it calls is not modelled (its inner "
                                  "operator calls dispatch afresh)",
                                  "default for CompositeImplicitAutograd kernels");
  if (k == k_undefined)
    return returns_if_kernel_does("runs with no backend key left", "default for Undefined");
  if (is_backend_row(cat, k))
    return returns_if_kernel_does(where_from(row) + " computes the result" +
                                      (row_language(row) == KernelLanguage::Python ? " (a Python kernel)" : ""),
                                  "default for backend kernels");
  if (!kind)
    return handoff(where_from(row) + " at " + name + " is not modelled by dispatchctl; the trace stops",
                   "no default for " + name);
  Behaviour b = kind_behaviour(registry, op, row, *kind, facts);
  if (b.action == HopAction::Raise) return b;  // check_inplace's leaf check comes first
  add_inference_bump(cat, op, row, facts.writes_inference_tensor, b);
  return b;
}

}  // namespace

Behaviour behaviour_of(const Registry& registry, const Operator& op, const LiveTable& live,
                       const Row& row, const CallFacts& facts) {
  Behaviour b = row.valid() ? behaviour_of_kernel(registry, op, row, facts)
                            : raise("NotImplementedError", missing_row_message(registry, op, live, row.key),
                                    "no kernel: PyTorch reports the missing row");
  if (b.assumed.empty()) b.assumed = "what PyTorch's dispatcher does with this row";
  return b;
}

}  // namespace dispatchctl
