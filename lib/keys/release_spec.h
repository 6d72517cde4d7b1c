// Everything dispatchctl knows about one PyTorch release, as read from its
// release profile (lib/keys/profile.h; docs/dispatch-semantics.md §1, §2, §5, §8,
// §9). Pure data: the strings live in `arena`, the fields view into it, so a
// spec is movable but not copyable. Catalogue derives everything else.
#pragma once

#include <deque>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace dispatchctl {

struct FunctionalitySpec {
  std::string_view name;
  // Per-backend functionalities ("building blocks") have one runtime key per
  // backend, printed as prefix + backend name (Dense has the empty prefix).
  bool per_backend = false;
  std::string_view runtime_prefix = {};
};

using NamedKeyList = std::vector<std::pair<std::string_view, std::vector<std::string_view>>>;

struct ReleaseSpec {
  ReleaseSpec() = default;
  ReleaseSpec(ReleaseSpec&&) = default;
  ReleaseSpec& operator=(ReleaseSpec&&) = default;
  ReleaseSpec(const ReleaseSpec&) = delete;
  ReleaseSpec& operator=(const ReleaseSpec&) = delete;

  std::string_view version;          // MAJOR.MINOR, e.g. "2.14"
  std::string_view torch_version;    // as the profile gives it, e.g. "2.14.1" ("" if none)
  std::string_view reference_build;  // the build the profile was taken from
  std::string_view source;           // where the profile was read ("builtin:2.14.1", a file)

  // --- what the release reports through torch._C (keys.json's shape) ---------
  std::vector<std::string_view> enum_names;  // toString of every enum value 0 .. last alias
  std::vector<std::vector<std::string_view>> python_members;  // torch._C.DispatchKey names by value
  std::vector<std::string_view> runtime_key_order;  // table rows, Undefined first
  // _dispatch_is_included_in_alias(k, alias) for every runtime key k, as reported.
  NamedKeyList alias_expansion;
  // _dispatch_get_backend_keyset_from_autograd per autograd key, as reported.
  NamedKeyList backend_keyset_from_autograd;
  std::vector<std::string_view> autogradother_backend_keys;  // runtime keys
  std::vector<std::string_view> backend_fallback_keys;       // _dispatch_has_backend_fallback

  // --- derived from the enum by the profile reader ---------------------------
  // BackendComponent order (CPUBit = 1 ...).
  std::vector<std::string_view> backends;
  // Functionality keys by enum value 1 .. EndOfFunctionalityKeys-1.
  std::vector<FunctionalitySpec> functionalities;
  // Alias keys in enum order.
  std::vector<std::string_view> aliases;
  // toString of the StartOf<F>Backends placeholders: prefix + this word.
  std::string_view placeholder_word;
  // Derived from the reported sets, for readers of the spec (§2, §8.4).
  std::vector<std::string_view> autogradother_functionalities;
  std::vector<std::string_view> non_functional_excluded_functionalities;
  std::vector<std::string_view> non_functional_excluded_backends;
  std::vector<std::string_view> autograd_keys_without_backend_set;
  bool functionalize_in_math_set = false;

  // --- profile data beyond the key sets ---------------------------------------
  // Backends whose getAutogradKeyFromBackend is AutogradOther [quirk].
  std::vector<std::string_view> backends_with_autograd_other;
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
  NamedKeyList tensor_presets;
  // Presets inferred rather than observed on the release (a CPU-only build cannot
  // create CUDA tensors), by name.
  std::vector<std::string_view> inferred_presets;
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
  // Registering a schema (Library.define, def_) takes lower-case names such as
  // `t` as type variables in every namespace (1.13), or only in aten:: and
  // prim:: schemas (PyTorch's parser since 2.1; the default when unknown).
  bool schema_type_variables_in_any_namespace = false;
  // The ambiguous AutogradOther kernel's INTERNAL ASSERT (KernelFunction.cpp):
  // where it fires as the build prints it ("" = unknown) and its inference hint.
  std::string_view ambiguous_assert_at;
  std::string_view ambiguous_autogradother_hint;
  // Where the assert of a fallthrough kernel that gets called (it reached a row
  // no bit can mask, §9.1) fires, as the build prints it ("" = unknown).
  std::string_view fallthrough_assert_at;
  // JSON pointers of profile fields that were inferred, not observed.
  std::vector<std::string_view> inferred;

  // Whether `inferred` names this profile field or part of it, e.g.
  // "tensor_modifier_keys/conj" (pointers may carry the manifest's prefix).
  bool is_inferred(std::string_view field_path) const {
    for (std::string_view p : inferred) {
      const size_t n = field_path.size();
      if (p.size() > n && p.substr(p.size() - n) == field_path && p[p.size() - n - 1] == '/') return true;
    }
    return false;
  }
  bool preset_inferred(std::string_view preset) const {
    for (auto n : inferred_presets)
      if (n == preset) return true;
    return false;
  }
  bool modifier_inferred(std::string_view modifier) const {
    return is_inferred("tensor_modifier_keys") ||
           is_inferred("tensor_modifier_keys/" + std::string(modifier));
  }

  // Owns the text every view above points into (deque: stable addresses).
  std::deque<std::string> arena;
  std::string_view keep(std::string text) { return arena.emplace_back(std::move(text)); }
};

}  // namespace dispatchctl
