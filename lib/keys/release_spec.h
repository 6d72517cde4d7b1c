// The raw description of one PyTorch release's dispatch keys: pure data,
// transcribed from c10/core/DispatchKey{,Set}.h of that release
// (dispatch-semantics.md §1, §2, §8). Catalogue derives everything else.
#pragma once

#include <string_view>
#include <vector>

namespace dispatchctl {

struct FunctionalitySpec {
  std::string_view name;
  // Per-backend functionalities ("building blocks") have one runtime key per
  // backend, printed as prefix + backend name (Dense has the empty prefix).
  bool per_backend = false;
  std::string_view runtime_prefix = {};
};

struct ReleaseSpec {
  std::string_view version;  // MAJOR.MINOR, e.g. "2.14"
  std::string_view reference_build;  // the build the table was verified on

  // BackendComponent order (CPUBit = 1 ...).
  std::vector<std::string_view> backends;
  // Functionality keys by enum value 1 .. EndOfFunctionalityKeys-1.
  std::vector<FunctionalitySpec> functionalities;
  // Alias keys in enum order.
  std::vector<std::string_view> aliases;
  // toString of the StartOf<F>Backends placeholders: prefix + this word.
  std::string_view placeholder_word;

  // autogradother_backends, besides all backend bits (§2).
  std::vector<std::string_view> autogradother_functionalities;
  // Removed from backend_dispatch_keyset to make the CEANF set.
  std::vector<std::string_view> non_functional_excluded_functionalities;
  std::vector<std::string_view> non_functional_excluded_backends;
  // Backends whose getAutogradKeyFromBackend is AutogradOther [quirk].
  std::vector<std::string_view> backends_with_autograd_other;
  // Autograd keys for which getBackendKeySetFromAutograd is empty [quirk].
  std::vector<std::string_view> autograd_keys_without_backend_set;
  // Some PyTorch builds put Functionalize into the CIA set (§8.4).
  bool functionalize_in_math_set = false;

  // Names parseDispatchKey accepts (§1.7): what Python bindings take.
  std::string_view python_parseable_names;  // space separated

  // Call-time data (§5.3): Autocast key per backend ("" = none) and the
  // default thread-local include/exclude sets.
  std::vector<std::pair<std::string_view, std::string_view>> autocast_key_of_backend;
  std::vector<std::string_view> default_tls_included;
  std::vector<std::string_view> default_tls_excluded;
  // Override warning (§3.4): printed once per process in 2.x, and not for
  // these keys; 1.13 warns every time for every key.
  bool override_warning_once = false;
  std::vector<std::string_view> override_warning_silent_keys;
  // 1.13 picks the per-backend fallthrough mask from the raw tensor set,
  // 2.x from the set after TLS (§5.1, §9.1).
  bool fallthrough_mask_after_tls = true;

  // `trace` (§5.3, §9.1): the key set of a tensor of each preset kind, as
  // torch._C._dispatch_keys prints it.
  std::vector<std::pair<std::string_view, std::vector<std::string_view>>> tensor_presets;
  // Preset modifiers that add one key (conj -> Conjugate …).
  std::vector<std::pair<std::string_view, std::string_view>> tensor_modifier_keys;
  // What a tensor created in inference mode lacks
  // (autograd_dispatch_keyset_with_ADInplaceOrView; `-` keeps backend bits).
  std::vector<std::string_view> inference_tensor_removed;
  // torch.inference_mode(): removed from the TLS included set, added to excluded.
  std::vector<std::string_view> inference_mode_tls_unincluded;
  std::vector<std::string_view> inference_mode_tls_excluded;
  // The Meta backend fallback's error text ("{op}" = operator name); empty
  // when the release has no raising Meta fallback.
  std::string_view meta_fallback_error;
  // The Autograd<backend> backend fallbacks, when they are real kernels (2.x;
  // 1.13's are fallthroughs): the autograd-not-implemented fallback. The
  // forward runs (redispatch after autograd, no TLS guard); if an input
  // requires grad, backward prints this warning ("{op}" = operator) and the
  // gradients are missing. Empty: the release's fallback is not known to do so.
  std::string_view autograd_fallback_backward_warning;
  // The ambiguous AutogradOther kernel's INTERNAL ASSERT (KernelFunction.cpp):
  // where it fires as the build prints it ("" = unknown) and its inference hint.
  std::string_view ambiguous_assert_at;
  std::string_view ambiguous_autogradother_hint;
};

// Every release this build knows, oldest first.
const std::vector<ReleaseSpec>& known_releases();

}  // namespace dispatchctl
