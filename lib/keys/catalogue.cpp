#include "keys/catalogue.h"

#include <algorithm>
#include <bit>
#include <memory>
#include <deque>
#include <stdexcept>

#include "keys/profile.h"
#include "util/errors.h"
#include "util/join.h"

namespace dispatchctl {

namespace {
constexpr std::string_view k_alias_names[6] = {
    "Autograd",
    "CompositeImplicitAutograd",
    "FuncTorchBatchedDecomposition",
    "CompositeImplicitAutogradNestedTensor",
    "CompositeExplicitAutograd",
    "CompositeExplicitAutogradNonFunctional",
};
}  // namespace

void Catalogue::add_key(std::string name, KeyKind kind, Key functionality, int backend) {
  names_.push_back(std::move(name));
  kinds_.push_back(kind);
  functionality_.push_back(functionality);
  backend_.push_back(backend);
}

Catalogue::Catalogue(ReleaseSpec owned)
    : owned_(std::make_unique<const ReleaseSpec>(std::move(owned))), spec_(owned_.get()) {
  functionality_count_ = static_cast<Key>(spec_->functionalities.size() + 1);
  if (backend_count() + functionality_count_ - 1 > 64)
    throw InputError(std::string(spec_->source) + ": " + std::to_string(backend_count()) + " backends and " +
                     std::to_string(functionality_count_ - 1) +
                     " functionality keys do not fit c10's 64-bit key set");
  lay_out_enum();
  lay_out_runtime_table();
  read_reported_sets();
}

KeySet Catalogue::functionality_bit(Key f) const { return KeySet{1ull << (backend_count() + f - 1)}; }

// The enum as c10 lays it out (§1.3): Undefined, the functionality keys, the
// per-backend blocks, the alias keys; checked against the enum the release printed.
void Catalogue::lay_out_enum() {
  const ReleaseSpec& spec = *spec_;
  const int nb = backend_count();
  auto backend_bit = [](int b) { return KeySet{1ull << (b - 1)}; };
  per_backend_.assign(functionality_count_, false);
  add_key("Undefined", KeyKind::Undefined, 0, 0);
  bits_.push_back({});
  for (Key f = 1; f < functionality_count_; ++f) {
    const auto& fs = spec.functionalities[f - 1];
    per_backend_[f] = fs.per_backend;
    add_key(std::string(fs.name), fs.per_backend ? KeyKind::BuildingBlock : KeyKind::Functionality,
            f, 0);
    bits_.push_back(functionality_bit(f));
  }
  add_key(spec.enum_names.size() > functionality_count_
              ? std::string(spec.enum_names[functionality_count_]) : "UnknownUnknown",
          KeyKind::Placeholder, 0, 0);  // EndOfFunctionalityKeys
  bits_.push_back({});
  // Per-backend blocks: StartOf<F>Backends, then one key per backend.
  block_start_.assign(functionality_count_, 0);
  for (Key f = 1; f < functionality_count_; ++f) {
    if (!per_backend_[f]) continue;
    const auto prefix = std::string(spec.functionalities[f - 1].runtime_prefix);
    block_start_[f] = static_cast<Key>(names_.size());
    add_key(prefix + std::string(spec.placeholder_word), KeyKind::Placeholder, f, 0);
    bits_.push_back(functionality_bit(f));
    for (int b = 1; b <= nb; ++b) {
      add_key(prefix + std::string(spec.backends[b - 1]), KeyKind::PerBackendRuntime, f, b);
      bits_.push_back(functionality_bit(f) | backend_bit(b));
    }
  }
  if (names_.size() + spec.aliases.size() > 256 || spec.aliases.size() > 32)
    throw InputError(std::string(spec.source) + ": more than 256 dispatch keys or 32 alias keys");
  for (auto alias_name : spec.aliases) {
    const Key k = static_cast<Key>(names_.size());
    add_key(std::string(alias_name), KeyKind::Alias, 0, 0);
    bits_.push_back({});  // alias keys have no bits (§1.8)
    for (int i = 0; i < 6; ++i)
      if (k_alias_names[i] == alias_name) alias_keys_[i] = k;
  }
  for (Key k = 0; k < names_.size() && k < spec.enum_names.size(); ++k)
    if (names_[k] != spec.enum_names[k])
      throw InputError({std::string(spec.source), "/enum/" + std::to_string(k)}, "'" +
                       std::string(spec.enum_names[k]) + "' where c10's layout gives '" + names_[k] +
                       "'; the enum and runtime_key_order disagree");
  by_name_.reserve(names_.size());
  for (Key k = 0; k < names_.size(); ++k)
    if (kinds_[k] != KeyKind::Placeholder) by_name_.emplace(names_[k], k);
}

// The runtime table's order and each functionality's offset in it (§1.4, §1.8).
void Catalogue::lay_out_runtime_table() {
  const int nb = backend_count();
  offset_.assign(functionality_count_, 0);
  runtime_keys_.push_back(k_undefined);
  for (Key f = 1; f < functionality_count_; ++f) {
    offset_[f] = offset_[f - 1] + ((f - 1 >= 1 && per_backend_[f - 1]) ? nb : 1);
    if (per_backend_[f]) {
      for (int b = 1; b <= nb; ++b) runtime_keys_.push_back(static_cast<Key>(block_start_[f] + b));
    } else {
      runtime_keys_.push_back(f);
    }
  }
}

// The sets of §2 as the release reported them, and the per-key answers the
// table algorithm asks for every row.
void Catalogue::read_reported_sets() {
  const ReleaseSpec& spec = *spec_;
  full_ = full_backend_mask();
  for (Key f = 1; f < functionality_count_; ++f) full_ = full_ | functionality_bit(f);
  auto functionality_named = [&](std::string_view n) {
    auto k = find(n);
    if (!k || functionality_of(*k) != *k)
      throw InputError(std::string(spec.source) + ": the release has no functionality key " +
                       std::string(n) + ", which c10's dispatcher needs");
    return *k;
  };
  well_known_ = {functionality_named("Dense"),
                 functionality_named("NestedTensor"),
                 functionality_named("AutogradFunctionality"),
                 functionality_named("AutogradOther"),
                 functionality_named("AutogradNestedTensor"),
                 functionality_named("FuncTorchBatched"),
                 functionality_named("PythonDispatcher"),
                 functionality_named("ADInplaceOrView"),
                 functionality_named("Functionalize"),
                 find("Meta").value_or(k_undefined)};
  autogradother_backends_ = union_of(spec.autogradother_backend_keys, "autogradother_backends");
  backend_dispatch_ = autogradother_backends_ | bit(well_known_.dense);

  alias_membership_.assign(names_.size(), 0);
  alias_ordinal_.assign(names_.size(), -1);
  alias_runtime_set_.assign(spec.aliases.size(), KeySet{});
  for (size_t a = 0; a < spec.aliases.size(); ++a) {
    const Key alias_key = *find(spec.aliases[a]);
    alias_ordinal_[alias_key] = static_cast<std::int8_t>(a);
    for (const auto& [name, keys] : spec.alias_expansion) {
      if (name != spec.aliases[a]) continue;
      for (auto n : keys) {
        const Key k = runtime_key_named(n, "alias_expansion");
        alias_runtime_set_[a] = alias_runtime_set_[a] | bits_[k];
        alias_membership_[k] |= 1u << a;
      }
    }
  }
  backend_set_from_autograd_.assign(names_.size(), KeySet{});
  for (const auto& [name, keys] : spec.backend_keyset_from_autograd)
    if (auto k = find(name)) backend_set_from_autograd_[*k] = union_of(keys, "backend_keyset_from_autograd");
}

Key Catalogue::runtime_key_named(std::string_view name, const char* field) const {
  const auto k = find(name);
  if (!k || !is_runtime(*k))
    throw InputError({std::string(spec_->source), "/" + std::string(field)}, "'" + std::string(name) +
                     "' is not a runtime key of this release");
  return *k;
}

KeySet Catalogue::union_of(const std::vector<std::string_view>& names, const char* field) const {
  KeySet s;
  for (auto n : names) s = s | bits_[runtime_key_named(n, field)];
  return s;
}

const Catalogue& Catalogue::intern(ReleaseSpec spec) {
  static std::deque<std::unique_ptr<Catalogue>> loaded;
  return *loaded.emplace_back(std::make_unique<Catalogue>(std::move(spec)));
}

bool Catalogue::is_runtime(Key k) const {
  return k == k_undefined || kinds_[k] == KeyKind::Functionality ||
         kinds_[k] == KeyKind::PerBackendRuntime;
}

std::optional<Key> Catalogue::find(std::string_view name) const {
  auto it = by_name_.find(name);
  if (it == by_name_.end()) return std::nullopt;
  return it->second;
}

// A word of the space-separated list; asked only by `keys` and `explain-key`,
// so no table is built for it at start-up.
bool Catalogue::python_parseable(std::string_view name) const {
  const std::string_view words = spec_->python_parseable_names;
  if (name.empty()) return false;
  for (size_t at = words.find(name); at != std::string_view::npos; at = words.find(name, at + 1)) {
    const size_t end = at + name.size();
    if ((at == 0 || words[at - 1] == ' ') && (end == words.size() || words[end] == ' ')) return true;
  }
  return false;
}

std::vector<std::string_view> Catalogue::key_names() const {
  std::vector<std::string_view> out;
  for (Key k = 0; k < names_.size(); ++k)
    if (kinds_[k] != KeyKind::Placeholder) out.push_back(names_[k]);
  return out;
}

std::optional<Alias> Catalogue::alias_of(Key k) const {
  if (kinds_[k] != KeyKind::Alias) return std::nullopt;  // an alias unknown to Alias: nullopt
  for (int i = 0; i < 6; ++i)
    if (alias_keys_[i] == k) return static_cast<Alias>(i);
  return std::nullopt;
}

std::optional<int> Catalogue::backend_index(std::string_view backend_name) const {
  for (int b = 1; b <= backend_count(); ++b)
    if (spec_->backends[b - 1] == backend_name) return b;
  return std::nullopt;
}

bool Catalogue::is_per_backend_functionality(Key f) const {
  return f > 0 && f < functionality_count_ && per_backend_[f];
}

Key Catalogue::runtime_key(Key functionality, int backend) const {
  if (!is_per_backend_functionality(functionality)) return functionality;
  return static_cast<Key>(block_start_[functionality] + backend);  // backend 0: placeholder
}

KeySet Catalogue::full_after(Key k) const {
  const Key f = functionality_of(k);
  KeySet s{(1ull << (backend_count() + f - 1)) - 1};
  return s | bit(well_known_.python_dispatcher);
}

int Catalogue::highest_backend(KeySet s) const {
  const std::uint64_t backends = s.repr & full_backend_mask().repr;
  return backends == 0 ? 0 : 64 - std::countl_zero(backends);
}

Key Catalogue::highest_priority(KeySet s) const {
  const std::uint64_t functionalities = s.repr >> backend_count();
  if (functionalities == 0) return k_undefined;
  const Key f = static_cast<Key>(64 - std::countl_zero(functionalities));
  if (!per_backend_[f]) return f;
  return runtime_key(f, highest_backend(s));
}

std::vector<Key> Catalogue::iterate(KeySet s) const {
  std::vector<Key> out;
  for (Key f = 1; f < functionality_count_; ++f) {
    if (!has(s, f)) continue;
    if (!per_backend_[f]) {
      out.push_back(f);
      continue;
    }
    for (int b = 1; b <= backend_count(); ++b)
      if (s.repr & (1ull << (b - 1))) out.push_back(runtime_key(f, b));
  }
  return out;
}

std::string Catalogue::format(KeySet s) const {
  return "DispatchKeySet(" + join(iterate(s), ", ", [this](Key k) -> const std::string& { return names_[k]; }) + ")";
}

KeySet Catalogue::set_of(const std::vector<std::string_view>& names) const {
  KeySet s;
  for (auto n : names)
    if (auto k = find(n)) s = s | bit(*k);
  return s;
}

int Catalogue::table_index(KeySet s) const {
  const Key k = highest_priority(s);
  const Key f = functionality_of(k);
  if (f == 0) return 0;
  if (!per_backend_[f]) return offset_[f];
  const int b = highest_backend(s);
  return offset_[f] + (b == 0 ? 0 : b - 1);
}

bool Catalogue::included_in_alias(Key k, Key alias_key) const {
  if (!is_alias(alias_key)) return k == alias_key;
  return (alias_membership_[k] >> alias_ordinal_[alias_key]) & 1;
}

std::vector<Key> Catalogue::alias_runtime_keys(Key alias_key) const {
  std::vector<Key> out;
  for (Key k : runtime_keys_)
    if (included_in_alias(k, alias_key)) out.push_back(k);
  return out;
}

std::vector<Key> Catalogue::aliases_covering(Key k) const {
  static constexpr Alias precedence[] = {
      Alias::CompositeExplicitAutogradNonFunctional, Alias::CompositeExplicitAutograd,
      Alias::CompositeImplicitAutogradNestedTensor,  Alias::CompositeImplicitAutograd,
      Alias::Autograd,                               Alias::FuncTorchBatchedDecomposition};
  std::vector<Key> out;
  for (Alias a : precedence)
    if (auto ak = alias(a); ak && included_in_alias(k, *ak)) out.push_back(*ak);
  return out;
}

KeySet Catalogue::backend_set_from_autograd(Key k) const { return backend_set_from_autograd_[k]; }

bool Catalogue::is_backend_dispatch_key(Key k) const {
  return k != k_undefined && !is_alias(k) && k != well_known_.nested_tensor &&
         has(backend_dispatch_, k);
}

Key Catalogue::autograd_key_from_backend(int backend) const {
  if (backend == 0) return well_known_.autograd_other;
  for (auto n : spec_->backends_with_autograd_other)
    if (spec_->backends[backend - 1] == n) return well_known_.autograd_other;
  return runtime_key(well_known_.autograd_functionality, backend);
}

KeySet Catalogue::runtime_set_of(Key k) const {
  if (is_alias(k)) return alias_runtime_set_[alias_ordinal_[k]];
  return bit(k);
}

std::string Catalogue::name_list(const std::vector<Key>& keys) const {
  return join(keys, ", ", [this](Key k) { return name(k); });
}

}  // namespace dispatchctl
