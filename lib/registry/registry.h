// What the libraries registered with the dispatcher: operators (schema +
// kernels per key, newest first) and the dispatcher-wide backend fallbacks
// (docs/dispatch-semantics.md §3.1). Built by the manifest loader or the dump
// importer through the same three calls PyTorch has: def, impl, fallback.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <functional>
#include <iterator>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "keys/catalogue.h"
#include "registry/composite_calls.h"
#include "registry/kernel_source.h"
#include "registry/name_index.h"
#include "registry/origin.h"
#include "registry/string_pool.h"
#include "util/errors.h"
#include "util/forward_iterator.h"

namespace dispatchctl {

// What a kernel does when a call reaches it (`trace`; docs/manifest-format.md).
// Autograd: what torchgen's generated autograd (VariableType) kernels do.
enum class KernelThen : std::uint8_t { Default, Return, Redispatch, Call, Decompose, Raise, Autograd };

// Fields ordered by size: a large manifest holds a million of these.
struct Kernel {
  Text debug;
  OptionalText signature;  // inferred C++ schema, e.g. "(Tensor _0) -> Tensor _0"
  Origin origin;
  std::uint32_t sequence = 0;  // registration order, registry-wide
  Key key = k_undefined;  // as stored: a keyless/Undefined registration is CIA
  bool fallthrough = false;
  bool boxed = true;
  bool unboxed = true;
  KernelThen then = KernelThen::Default;  // no effect on tables
  // Which generator wrote it; Registry::impl parses it from `debug` unless the loader set it.
  KernelSource source;
  bool source_known = false;
};

// torchgen's boxed-only autogradNotImplementedFallback() registration, as the
// generated VariableType code registers it (a real build's or predicted): no
// signature, boxed only. The one test for "the autograd-not-implemented kernel".
bool is_autograd_not_implemented(const Kernel& kernel);

// What a kernel torchgen generates calls through the dispatcher, where
// torchgen fixes it (docs/torchgen-rules.md §3, "generated calls"): the facts
// come from torchgen's model of the YAML (structured_delegate, autogen), not
// from operator names. Recorded per kernel by the loaders that know them
// (torchgen/generated_calls.h; the built-in packs carry them).
enum class GeneratedCallKind : std::uint8_t {
  StructuredOut,      // a structured op's CompositeExplicitAutogradNonFunctional kernel: meta, then OP.out
  AutogenOut,         // an autogen'd out= op's CompositeExplicitAutograd kernel: the functional op, then a copy
  AutogenFunctional,  // an autogen'd functional op's CompositeExplicitAutograd kernel: the in-place/mutable op on clones
};
std::string_view generated_call_kind_id(GeneratedCallKind kind);  // "structured_out" …
struct GeneratedCall {
  Text callee;  // "aten::add.out"
  GeneratedCallKind kind = GeneratedCallKind::StructuredOut;
};

// What the generated autograd kernel (VariableType) of an out= operator checks
// before it calls below, where torchgen decides the operator is differentiable
// (gen_variable_type's requires_derivative, from derivatives.yaml): in grad
// mode it raises throw_error_out_requires_grad when one of these arguments
// requires grad. Argument names of the schema; the facts come from
// torchgen's model of the release's YAML (torchgen/out_grad_checks.h).
struct OutGradCheck {
  std::vector<Text> inputs;   // {"self", "other"}: the differentiable inputs, checked first
  std::vector<Text> outputs;  // {"out"}: the out= arguments of the differentiable outputs
};

struct Fallback {
  Text debug;
  Origin origin;
  std::uint32_t sequence = 0;
  Key key = k_undefined;
  bool fallthrough = false;
  KernelSource source;  // Registry::fallback parses it from `debug`
};

// PyTorch's alias analysis kinds (what Schema::alias_analysis holds).
constexpr std::string_view k_alias_analysis_kinds[] = {"FROM_SCHEMA", "CONSERVATIVE", "PURE_FUNCTION"};

struct Schema {
  Text text;  // ns::name.overload(args) -> returns
  Text debug;
  Text alias_analysis = "CONSERVATIVE";
  Origin origin;
  bool alias_analysis_explicit = false;
};

// The kernels registered at one key, newest first, as indices into
// Operator::registrations. PyTorch puts each new kernel at the front of its
// key's list (OperatorEntry::registerKernel), so the list is the operator's
// registrations at that key in reverse order: a view, with nothing stored per
// key (issue 14: a large manifest holds a million operators).
class KernelsAtKey {
 public:
  KernelsAtKey(const std::vector<Kernel>& registrations, Key key)
      : first_(registrations.data()), last_(registrations.data() + registrations.size()), key_(key) {}

  class iterator : public ForwardIterator<iterator, std::uint32_t> {
   public:
    iterator() = default;
    iterator(const Kernel* first, const Kernel* at, Key key) : first_(first), at_(at), key_(key) { settle(); }
    std::uint32_t operator*() const { return static_cast<std::uint32_t>(at_ - 1 - first_); }
    using ForwardIterator::operator++;
    iterator& operator++() {
      --at_;
      settle();
      return *this;
    }
    bool operator==(const iterator& other) const { return at_ == other.at_; }

   private:
    // `at_` is one past the kernel it points at; first_ when done.
    void settle() {
      while (at_ != first_ && (at_ - 1)->key != key_) --at_;
    }
    const Kernel* first_ = nullptr;
    const Kernel* at_ = nullptr;
    Key key_ = 0;
  };

  iterator begin() const { return {first_, last_, key_}; }
  iterator end() const { return {first_, first_, key_}; }
  std::size_t size() const { return static_cast<std::size_t>(std::distance(begin(), end())); }
  bool empty() const { return begin() == end(); }
  std::uint32_t front() const { return *begin(); }
  std::uint32_t operator[](std::size_t i) const { return *std::next(begin(), static_cast<std::ptrdiff_t>(i)); }

 private:
  const Kernel* first_;
  const Kernel* last_;
  Key key_;
};

// Keys below this have a bit in Operator::present (the catalogue checks its size).
constexpr int k_present_keys = 256;

struct Operator {
  Text name;
  std::optional<Schema> schema;
  // Every kernel in registration order; `by_key()` and `kernels_at()` view it per key.
  std::vector<Kernel> registrations;
  std::array<std::uint64_t, k_present_keys / 64> present{};  // bit per key with kernels: O(1) has()

  struct KeyKernels {
    Key key;
    KernelsAtKey newest_first;
  };
  // The keys with kernels in key value order (dumpState order), each with its kernels.
  class KeysWithKernels {
   public:
    explicit KeysWithKernels(const Operator& op) : op_(&op) {}
    class iterator : public ForwardIterator<iterator, KeyKernels> {
     public:
      iterator() = default;
      iterator(const Operator* op, int key) : op_(op), key_(key) { settle(); }
      KeyKernels operator*() const {
        const Key k = static_cast<Key>(key_);
        return {k, KernelsAtKey(op_->registrations, k)};
      }
      using ForwardIterator::operator++;
      iterator& operator++() {
        ++key_;
        settle();
        return *this;
      }
      bool operator==(const iterator& other) const { return key_ == other.key_; }

     private:
      void settle() {
        while (key_ < k_present_keys) {
          const std::uint64_t above = op_->present[key_ >> 6] >> (key_ & 63);
          if (above & 1) return;
          key_ = above ? key_ + std::countr_zero(above) : ((key_ >> 6) + 1) << 6;
        }
      }
      const Operator* op_ = nullptr;
      int key_ = k_present_keys;
    };
    iterator begin() const { return {op_, 0}; }
    iterator end() const { return {op_, k_present_keys}; }

   private:
    const Operator* op_;
  };
  KeysWithKernels by_key() const { return KeysWithKernels(*this); }

  bool has(Key k) const { return (present[k >> 6] >> (k & 63)) & 1; }
  // The list at exactly k (alias keys allowed), newest first; empty if none.
  KernelsAtKey kernels_at(Key k) const { return KernelsAtKey(registrations, k); }
  // The newest kernel at exactly k: the one PyTorch dispatches to.
  const Kernel* active(Key k) const {
    if (!has(k)) return nullptr;
    return &registrations[kernels_at(k).front()];
  }
};

class Registry {
 public:
  // `torch_version` as the first source gave it ("2.14.1"); the catalogue is its release's.
  Registry(const Catalogue& catalogue, std::string torch_version)
      : catalogue_(&catalogue), torch_version_(std::move(torch_version)),
        fallback_slot_(catalogue.key_count(), -1) {}

  const Catalogue& catalogue() const { return *catalogue_; }
  const std::string& torch_version() const { return torch_version_; }
  // Check kernel signatures against schemas as PyTorch does at registration.
  // Off for PyTorch's own dumps: what PyTorch printed, it already accepted.
  bool check_signatures = true;
  // What PyTorch refuses at registration (a second schema, a second
  // fallback, a signature mismatch) is thrown as InputError, unless this
  // sink is set (`check` records it as a finding); the refused registration
  // is then skipped, leaving no trace as in PyTorch.
  enum class Refusal { DuplicateSchema, DuplicateFallback, SignatureMismatch };
  // op and key: what the refusal is about ("" when none), so `check --base` can tell two apart.
  std::function<void(Refusal, const Origin&, const std::string& message, std::string_view op, std::string_view key)>
      on_refused;

  // How the registration calls take the strings of what they register:
  // copied into the registry's pool, or kept as they are because they
  // outlive the registry (the built-in pack's bytes). An Origin holds no
  // text of its own (registry/origin.h).
  enum class Strings { Copy, Keep };

  // PyTorch's three registration calls. They throw InputError on what
  // PyTorch refuses (a second schema, a second fallback, a kernel whose
  // signature disagrees with the schema).
  void define(std::string_view op_name, Schema schema, Strings strings = Strings::Copy);
  void impl(std::string_view op_name, Kernel kernel, Strings strings = Strings::Copy);
  void fallback(Fallback fallback);
  // An operator known by name only (a dump block with neither schema nor
  // kernels), or one about to get `kernels` registrations (room made for them).
  void declare(std::string_view op_name, Strings strings = Strings::Copy, std::size_t kernels = 0);
  // Room for `more` operators (a large manifest says how many it brings):
  // no regrowth of the operator table while they are added.
  void reserve_operators(std::size_t more);
  // Room in the operator table only (the index grows as needed), for a count
  // that is a guess: pages never written are never resident.
  void reserve_operator_table(std::size_t more) { operators_.reserve(operators_.size() + more); }
  // A copy of `text` that lives as long as the registry: for a string built
  // while making a registration (what the registration calls keep is theirs).
  Text keep(std::string_view text) { return pool_->keep(text); }
  // Keeps `pool` as long as the registry: registrations whose strings view
  // it can then be made with Strings::Keep (a manifest's records).
  void keep_alive(std::shared_ptr<const StringPool> pool) { kept_pools_.push_back(std::move(pool)); }
  // Registrations loaded together must name one release; InputError at `where` if not.
  void require_release(const std::string& version, const std::string& where) const;

  const std::vector<Operator>& operators() const { return operators_; }
  const Operator* find(std::string_view op_name) const;
  // Operator names sorted by code point, as PyTorch's dumps are.
  std::vector<const Operator*> sorted_operators() const;
  const Fallback* fallback_for(Key k) const;
  const std::vector<Fallback>& fallbacks() const { return fallbacks_; }
  // The operator a generated kernel calls (GeneratedCall), recorded after the
  // kernel was registered; nullptr for every other kernel.
  void record_generated_call(const Kernel& kernel, std::string_view callee, GeneratedCallKind kind,
                             Strings strings = Strings::Copy);
  const GeneratedCall* generated_call(const Kernel& kernel) const {
    if (generated_calls_.empty()) return nullptr;
    const auto it = generated_calls_.find(kernel.sequence);
    return it == generated_calls_.end() ? nullptr : &it->second;
  }
  std::size_t generated_call_count() const { return generated_calls_.size(); }
  // The out= check of a generated autograd kernel (OutGradCheck); nullptr
  // where no loader knew it (manifests, registries without derivatives.yaml).
  void record_out_grad_check(const Kernel& kernel, const std::vector<std::string_view>& inputs,
                             const std::vector<std::string_view>& outputs,
                             Strings strings = Strings::Copy);
  const OutGradCheck* out_grad_check(const Kernel& kernel) const {
    if (out_grad_checks_.empty()) return nullptr;
    const auto it = out_grad_checks_.find(kernel.sequence);
    return it == out_grad_checks_.end() ? nullptr : &it->second;
  }
  std::size_t out_grad_check_count() const { return out_grad_checks_.size(); }
  // Whether the loader knew the release's out= checks (a kernel without one
  // then has none), even for operators a filtered load left out.
  void mark_out_grad_checks_known() { out_grad_checks_known_ = true; }
  bool out_grad_checks_known() const { return out_grad_checks_known_; }
  // What a hand-written composite kernel calls (registry/composite_calls.h),
  // recorded from the release; nullptr: not recorded (unknown). A deferred
  // section is decoded on the first question that needs it.
  void record_composite_calls(const Kernel& kernel, CompositeCalls calls, Strings strings = Strings::Copy);
  const CompositeCalls* composite_calls(const Kernel& kernel) const {
    if (main_deferred_) decode_deferred({});
    if (composite_calls_.empty()) return nullptr;
    const auto it = composite_calls_.find(kernel.sequence);
    return it == composite_calls_.end() ? nullptr : &it->second;
  }
  std::size_t composite_call_count() const;
  // The same kernel's calls recorded on another kind of tensor
  // (docs/composite-calls.md "kinds"): `kind` is the runtime key its tensors
  // carry (SparseCPU, NestedTensorCPU, Meta, CPU); nullptr: not recorded there.
  void record_kind_composite_calls(const Kernel& kernel, Key kind, CompositeCalls calls,
                                   Strings strings = Strings::Copy);
  const CompositeCalls* kind_composite_calls(const Kernel& kernel, Key kind) const {
    if (!kinds_deferred_.empty()) decode_deferred(kind);
    if (kind_composite_calls_.empty()) return nullptr;
    const auto it = kind_composite_calls_.find((std::uint64_t{kernel.sequence} << 16) | kind);
    return it == kind_composite_calls_.end() ? nullptr : &it->second;
  }
  // The kinds recorded (deferred ones included), in the order first recorded.
  const std::vector<Key>& composite_call_kinds() const { return composite_call_kinds_; }
  // Sections `source` decodes when first asked (a built-in pack): main and `kinds`.
  // A later record_* decodes them first, so the later recording wins.
  void defer_composite_calls(std::shared_ptr<const DeferredCompositeCalls> source, bool main,
                             const std::vector<Key>& kinds);
  // The kernels' recorded calls decoded so far: a deferred section's callees
  // were loaded by its loader (builtin/pack.h).
  void for_each_decoded_call(const std::function<void(const RecordedCall&)>& visit) const;
  // What an operator's backward calls (by operator name), and the gradient
  // seed a `.backward()` makes; nullptr / empty: not recorded. `flags`:
  // BackwardNodeFlag, how the recording saw the node (0 when not recorded).
  void record_backward_calls(std::string_view op_name, std::vector<RecordedCall> calls,
                             Strings strings = Strings::Copy, std::uint8_t flags = k_backward_flags_unstated);
  const std::vector<RecordedCall>* backward_calls(std::string_view op_name) const;
  std::uint8_t backward_flags(std::string_view op_name) const;
  const std::unordered_map<std::string_view, std::vector<RecordedCall>>& all_backward_calls() const {
    return backward_calls_;
  }
  void record_backward_seed(std::vector<RecordedCall> calls, Strings strings = Strings::Copy);
  // The backend whose tensors the calls were recorded on ("PrivateUse1"): the
  // calls hold at its keys (a kernel takes device-specific paths elsewhere).
  void set_composite_calls_backend(std::string_view backend) { composite_calls_backend_ = std::string(backend); }
  const std::string& composite_calls_backend() const { return composite_calls_backend_; }
  const std::vector<RecordedCall>& backward_seed() const { return backward_seed_; }

  // Rebuilding a registry from another (torchgen apply, added backends, a
  // predicted build): registers `kernel` as impl does and gives it every side
  // table `from` holds for its kernel `was` (generated call unless
  // `with_generated_call` is false, out= check, composite calls). The one
  // place that knows every per-kernel side table.
  void impl_carried(const Registry& from, const Kernel& was, std::string_view op_name, Kernel kernel,
                    bool with_generated_call = true);
  // The side tables `from` holds per operator or registry-wide (backward
  // calls, the seed, whether out= checks are known).
  void carry_registry_tables(const Registry& from);
  std::uint32_t registration_count() const { return sequence_; }

  // Manifests (or builtin names) loaded into this registry, in order.
  std::vector<std::string> sources;
  // The PrivateUse1 backend's name as torch.utils.rename_privateuse1_backend
  // set it (a manifest's "backend_name"); "" when not renamed.
  std::string privateuse1_backend;

 private:
  Operator& entry(std::string_view op_name, Strings strings);
  Text kept(std::string_view text, Strings strings) { return strings == Strings::Keep ? text : pool_->keep(text); }
  void refuse(Refusal what, const Origin& where, const std::string& message, std::string_view op = {},
              std::string_view key = {}) const;

  const Catalogue* catalogue_;
  std::string torch_version_;
  // Shared by copies of the registry, whose views point into it.
  std::shared_ptr<StringPool> pool_ = std::make_shared<StringPool>();
  std::vector<std::shared_ptr<const StringPool>> kept_pools_;
  std::vector<Operator> operators_;
  auto name_of() const {
    return [this](std::uint32_t position) -> std::string_view { return operators_[position].name; };
  }
  NameIndex index_;  // positions in operators_, by name
  std::vector<Fallback> fallbacks_;
  std::vector<int> fallback_slot_;  // by key: index into fallbacks_, or -1
  std::uint32_t sequence_ = 0;
  std::unordered_map<std::uint32_t, GeneratedCall> generated_calls_;  // by the kernel's sequence
  std::unordered_map<std::uint32_t, OutGradCheck> out_grad_checks_;   // by the kernel's sequence
  bool out_grad_checks_known_ = false;
  mutable std::unordered_map<std::uint32_t, CompositeCalls> composite_calls_;  // by the kernel's sequence
  mutable std::unordered_map<std::uint64_t, CompositeCalls> kind_composite_calls_;  // by (sequence << 16) | kind
  std::vector<Key> composite_call_kinds_;
  std::shared_ptr<const DeferredCompositeCalls> deferred_;
  mutable bool main_deferred_ = false;
  mutable std::vector<Key> kinds_deferred_;  // the sections deferred_ still holds undecoded
  void decode_deferred(std::optional<Key> kind) const;  // that section, if still deferred
  void decode_all_deferred() const;  // filling the mutable maps: the accessors are const
  std::unordered_map<std::string_view, std::vector<RecordedCall>> backward_calls_;  // names kept in pool_
  std::unordered_map<std::string_view, std::uint8_t> backward_flags_;  // BackwardNodeFlag; absent: 0
  std::vector<RecordedCall> backward_seed_;
  std::string composite_calls_backend_ = "PrivateUse1";
};

// Registers without the signature check while in scope: PyTorch's own dumps
// (what PyTorch printed, it already accepted), and the check's cost.
class SignatureChecksOff {
 public:
  explicit SignatureChecksOff(Registry& registry) : registry_(registry), was_(registry.check_signatures) {
    registry.check_signatures = false;
  }
  ~SignatureChecksOff() { registry_.check_signatures = was_; }
  SignatureChecksOff(const SignatureChecksOff&) = delete;
  SignatureChecksOff& operator=(const SignatureChecksOff&) = delete;

 private:
  Registry& registry_;
  bool was_;
};

}  // namespace dispatchctl
