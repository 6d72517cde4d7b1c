// The dispatch keys of one PyTorch release, built from its release profile
// (keys/profile.h) exactly as c10 lays them out (docs/dispatch-semantics.md §1,
// §2): enum values, printed names, the 64-bit key set, and the alias and
// autograd sets as the release reported them. Code asks the catalogue; it
// never lists keys itself.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "keys/release_spec.h"

namespace dispatchctl {

// A DispatchKey enum value of the catalogue's release.
using Key = std::uint16_t;
constexpr Key k_undefined = 0;

// c10::DispatchKeySet: backend bits low, functionality bits above (§1.1).
struct KeySet {
  std::uint64_t repr = 0;
  friend bool operator==(KeySet, KeySet) = default;
  KeySet operator|(KeySet o) const { return {repr | o.repr}; }
  KeySet operator&(KeySet o) const { return {repr & o.repr}; }
  bool empty() const { return repr == 0; }
};

enum class KeyKind {
  Undefined,
  Functionality,      // a runtime key that is its own functionality (FPGA, Tracer …)
  BuildingBlock,      // per-backend functionality: Dense, Sparse, AutogradFunctionality …
  PerBackendRuntime,  // CPU, SparseCsrMeta, AutogradXLA …
  Placeholder,        // EndOfFunctionalityKeys, StartOf…Backends
  Alias,
};

enum class Alias {
  Autograd,
  CompositeImplicitAutograd,
  FuncTorchBatchedDecomposition,
  CompositeImplicitAutogradNestedTensor,
  CompositeExplicitAutograd,
  CompositeExplicitAutogradNonFunctional,
};

class Catalogue {
 public:
  // Throws InputError (naming spec.source) when the profile's parts disagree.
  explicit Catalogue(ReleaseSpec spec);

  // A catalogue for a profile read at run time; lives as long as the process.
  static const Catalogue& intern(ReleaseSpec spec);

  const ReleaseSpec& spec() const { return *spec_; }
  std::string_view version() const { return spec_->version; }

  // --- enum ---------------------------------------------------------------
  Key key_count() const { return static_cast<Key>(names_.size()); }  // 0 .. last alias
  KeyKind kind(Key k) const { return kinds_[k]; }
  bool is_alias(Key k) const { return kinds_[k] == KeyKind::Alias; }
  bool is_runtime(Key k) const;
  // c10::toString(k).
  const std::string& name(Key k) const { return names_[k]; }
  // The keys' names, ", "-separated, as messages list keys.
  std::string name_list(const std::vector<Key>& keys) const;
  // Any printed name of a real key (not placeholders); what manifests accept.
  std::optional<Key> find(std::string_view name) const;
  // parseDispatchKey's fixed table (§1.7): what Python bindings accept.
  bool python_parseable(std::string_view name) const;
  // Every nameable key, for did-you-mean.
  std::vector<std::string_view> key_names() const;
  std::optional<Key> alias(Alias a) const { return alias_keys_[static_cast<int>(a)]; }
  std::optional<Alias> alias_of(Key k) const;

  // --- backends and functionalities --------------------------------------
  int backend_count() const { return static_cast<int>(spec_->backends.size()); }
  // BackendComponent of a per-backend runtime key (1-based), else 0.
  int backend_of(Key k) const { return backend_[k]; }
  std::optional<int> backend_index(std::string_view backend_name) const;
  // toFunctionalityKey: the functionality value of any non-alias key.
  Key functionality_of(Key k) const { return functionality_[k]; }
  bool is_per_backend_functionality(Key functionality) const;
  // The runtime key (functionality, backend) e.g. (Dense, CUDA) -> CUDA.
  Key runtime_key(Key functionality, int backend) const;

  // --- key sets (§1.8) ------------------------------------------------------
  KeySet bit(Key k) const { return bits_[k]; }
  KeySet full() const { return full_; }
  KeySet full_backend_mask() const { return {(1ull << backend_count()) - 1}; }
  bool has(KeySet s, Key k) const { return (s.repr & bits_[k].repr) == bits_[k].repr; }
  KeySet minus(KeySet a, KeySet b) const {
    return {a.repr & (full_backend_mask().repr | ~b.repr)};
  }
  KeySet full_after(Key k) const;
  Key highest_priority(KeySet s) const;
  int highest_backend(KeySet s) const;  // 1-based, 0 = none
  std::vector<Key> iterate(KeySet s) const;
  std::string format(KeySet s) const;  // DispatchKeySet(CPU, AutogradCPU)
  KeySet set_of(const std::vector<std::string_view>& names) const;

  // --- table rows ---------------------------------------------------------
  // Undefined first, then every runtime key in table order (§1.4).
  const std::vector<Key>& runtime_keys() const { return runtime_keys_; }
  // Index of a key set's row in the dispatch table (§1.8).
  int table_index(KeySet s) const;

  // --- alias semantics (§2) ---------------------------------------------
  // isIncludedInAlias(k, alias); for a non-alias `alias`, k == alias.
  bool included_in_alias(Key k, Key alias) const;
  // Runtime keys an alias expands to, in table order.
  std::vector<Key> alias_runtime_keys(Key alias) const;
  // Aliases whose set contains runtime key k, in alias precedence order.
  std::vector<Key> aliases_covering(Key k) const;
  KeySet backend_set_from_autograd(Key k) const;
  KeySet autogradother_backends() const { return autogradother_backends_; }
  bool is_backend_dispatch_key(Key k) const;
  Key autograd_key_from_backend(int backend) const;
  // getRuntimeDispatchKeySet(k) used by the live table update (§3.3).
  KeySet runtime_set_of(Key k) const;

 private:
  void add_key(std::string name, KeyKind kind, Key functionality, int backend);
  // The constructor's steps, in order.
  void lay_out_enum();
  void lay_out_runtime_table();
  void read_reported_sets();
  KeySet functionality_bit(Key f) const;
  KeySet union_of(const std::vector<std::string_view>& names, const char* field) const;
  Key runtime_key_named(std::string_view name, const char* field) const;  // InputError naming `field` if not

  std::unique_ptr<const ReleaseSpec> owned_;
  const ReleaseSpec* spec_;
  std::vector<std::string> names_;
  std::vector<KeyKind> kinds_;
  std::vector<Key> functionality_;
  std::vector<int> backend_;
  std::vector<KeySet> bits_;
  std::vector<bool> per_backend_;  // by functionality value
  std::unordered_map<std::string_view, Key> by_name_;
  std::vector<Key> runtime_keys_;
  std::vector<int> offset_;  // table offset by functionality value
  std::vector<Key> block_start_;  // StartOf<F>Backends by functionality value
  std::vector<std::uint32_t> alias_membership_;  // by key: bit per alias (enum order) whose set holds it
  std::vector<std::int8_t> alias_ordinal_;        // by key: its place among the aliases, or -1
  std::vector<KeySet> alias_runtime_set_;         // by alias ordinal: union of its keys' bits
  std::vector<KeySet> backend_set_from_autograd_;
  std::optional<Key> alias_keys_[6];
  KeySet full_, autogradother_backends_, backend_dispatch_;
  Key functionality_count_ = 0;  // EndOfFunctionalityKeys

 public:
  // Keys the algorithms refer to by name, resolved once.
  struct WellKnown {
    Key dense, nested_tensor, autograd_functionality, autograd_other, autograd_nested_tensor,
        func_torch_batched, python_dispatcher, ad_inplace_or_view, functionalize, meta;
  };
  const WellKnown& well_known() const { return well_known_; }

 private:
  WellKnown well_known_{};
};

}  // namespace dispatchctl
