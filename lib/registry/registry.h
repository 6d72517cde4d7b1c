// What the libraries registered with the dispatcher: operators (schema +
// kernels per key, newest first) and the dispatcher-wide backend fallbacks
// (dispatch-semantics.md §3.1). Built by the manifest loader or the dump
// importer through the same three calls PyTorch has: def, impl, fallback.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "keys/catalogue.h"
#include "util/errors.h"

namespace dispatchctl {


// Where a registration came from: manifest file (or builtin:VERSION), the
// JSON pointer of its entry, and the line when known (0 = unknown).
struct Origin {
  std::string file;
  std::string pointer;
  int line = 0;
  std::string to_string() const;  // file:line or file (pointer)
};

// What a kernel does when a call reaches it, as a manifest may declare it
// for `trace` ("then"); Default = trace's default for the kernel's kind.
enum class KernelThen { Default, Return, Redispatch, Call, Decompose, Raise };

struct Kernel {
  Key key = k_undefined;  // as stored: a keyless/Undefined registration is CIA
  std::string debug;
  std::optional<std::string> signature;  // inferred C++ schema, e.g. "(Tensor _0) -> Tensor _0"
  bool fallthrough = false;
  bool boxed = true;
  bool unboxed = true;
  KernelThen then = KernelThen::Default;  // no effect on tables
  Origin origin;
  std::uint32_t sequence = 0;  // registration order, registry-wide
};

struct Fallback {
  Key key = k_undefined;
  std::string debug;
  bool fallthrough = false;
  Origin origin;
  std::uint32_t sequence = 0;
};

struct Schema {
  std::string text;  // ns::name.overload(args) -> returns
  std::string debug;
  std::string alias_analysis = "CONSERVATIVE";
  bool alias_analysis_explicit = false;
  Origin origin;
};

struct Operator {
  std::string name;
  std::optional<Schema> schema;
  // Every kernel in registration order; `by_key` indexes it per key.
  std::vector<Kernel> registrations;
  struct KeyKernels {
    Key key;
    std::vector<std::uint32_t> newest_first;  // indices into registrations
  };
  std::vector<KeyKernels> by_key;  // sorted by key value (dumpState order)
  std::array<std::uint64_t, 4> present{};  // bit per key with kernels: O(1) has()

  bool has(Key k) const { return (present[k >> 6] >> (k & 63)) & 1; }
  // The list at exactly k (alias keys allowed), newest first; nullptr if none.
  const KeyKernels* kernels_at(Key k) const {
    if (!has(k)) return nullptr;
    for (const auto& kk : by_key)
      if (kk.key == k) return &kk;
    return nullptr;
  }
  const Kernel* active(Key k) const {
    const auto* kk = kernels_at(k);
    return kk ? &registrations[kk->newest_first.front()] : nullptr;
  }
};

class Registry {
 public:
  explicit Registry(const Catalogue& catalogue)
      : catalogue_(&catalogue), fallback_slot_(catalogue.key_count(), -1) {}

  const Catalogue& catalogue() const { return *catalogue_; }
  std::string torch_version;  // as the first manifest gave it
  // Check kernel signatures against schemas as PyTorch does at registration.
  // Off for PyTorch's own dumps: what PyTorch printed, it already accepted.
  bool check_signatures = true;
  // What PyTorch refuses at registration (a second schema, a second
  // fallback, a signature mismatch) is thrown as InputError, unless this
  // sink is set (`check` records it as a finding); the refused registration
  // is then skipped, leaving no trace as in PyTorch.
  enum class Refusal { DuplicateSchema, DuplicateFallback, SignatureMismatch };
  std::function<void(Refusal, const Origin&, const std::string& message)> on_refused;

  // PyTorch's three registration calls. They throw InputError on what
  // PyTorch refuses (a second schema, a second fallback, a kernel whose
  // signature disagrees with the schema).
  void define(std::string_view op_name, Schema schema);
  void impl(std::string_view op_name, Kernel kernel);
  void fallback(Fallback fallback);
  // An operator known by name only (a dump block with neither schema nor kernels).
  void declare(std::string_view op_name) { entry(op_name); }
  // Room for `more` operators (a large manifest says how many it brings):
  // no regrowth of the operator table while they are added.
  void reserve_operators(std::size_t more) {
    operators_.reserve(operators_.size() + more);
    index_.reserve(index_.size() + more);
  }
  // Registrations loaded together must name one release; InputError at `where` if not.
  void require_release(const std::string& version, const std::string& where) const;

  const std::vector<Operator>& operators() const { return operators_; }
  const Operator* find(std::string_view op_name) const;
  // Operator names sorted by code point, as PyTorch's dumps are.
  std::vector<const Operator*> sorted_operators() const;
  const Fallback* fallback_for(Key k) const;
  const std::vector<Fallback>& fallbacks() const { return fallbacks_; }
  std::uint32_t registration_count() const { return sequence_; }

  // Manifests (or builtin names) loaded into this registry, in order.
  std::vector<std::string> sources;

 private:
  Operator& entry(std::string_view op_name);
  void refuse(Refusal what, const Origin& where, const std::string& message) const;

  const Catalogue* catalogue_;
  std::vector<Operator> operators_;
  // Looked up by string_view without building a std::string (one per registration otherwise).
  struct NameHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view name) const { return std::hash<std::string_view>{}(name); }
  };
  std::unordered_map<std::string, std::size_t, NameHash, std::equal_to<>> index_;
  std::vector<Fallback> fallbacks_;
  std::vector<int> fallback_slot_;  // by key: index into fallbacks_, or -1
  std::uint32_t sequence_ = 0;
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
