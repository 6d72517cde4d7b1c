#include <algorithm>
#include <bit>
#include <cstring>
#include <memory>
#include <optional>
#include <utility>

#include "builtin/pack.h"

namespace dispatchctl {
namespace {

// PackedOutGradCheck's comma-separated names, as views into the pack.
std::vector<std::string_view> names(std::string_view list) {
  std::vector<std::string_view> out;
  while (!list.empty()) {
    const size_t comma = list.find(',');
    out.push_back(list.substr(0, comma));
    list = comma == std::string_view::npos ? std::string_view{} : list.substr(comma + 1);
  }
  return out;
}

static_assert(std::endian::native == std::endian::little, "packs are little-endian");

// Bounds-checked access to a pack: any record or string outside the data is
// an InputError, never a read past the end (tests/fuzz/fuzz_pack.cpp).
class PackView {
 public:
  PackView(std::string_view data, std::string source) : data_(data), source_(std::move(source)) {
    if (data.size() < sizeof header_) fail("shorter than its header");
    std::memcpy(&header_, data.data(), sizeof header_);
    if (std::memcmp(header_.magic, k_pack_magic, sizeof header_.magic) != 0) fail("not a dispatchctl pack");
    std::uint64_t at = sizeof header_;
    auto section = [&](std::uint64_t count, std::uint64_t size) {
      const std::uint64_t start = at;
      at += count * size;
      if (at > data.size()) fail("truncated");
      return start;
    };
    key_names_ = section(header_.key_count, sizeof(std::uint32_t));
    operators_ = section(header_.operator_count, sizeof(PackedOperator));
    kernels_ = section(header_.kernel_count, sizeof(PackedKernel));
    fallbacks_ = section(header_.fallback_count, sizeof(PackedFallback));
    calls_ = section(header_.generated_call_count, sizeof(PackedGeneratedCall));
    checks_ = section(header_.out_grad_check_count, sizeof(PackedOutGradCheck));
    sections_ = section(header_.composite_section_count, sizeof(PackedCompositeSection));
    composites_ = section(header_.composite_kernel_count, sizeof(PackedCompositeKernel));
    callee_ops_ = section(header_.callee_operator_count, sizeof(PackedOperatorCallees));
    callee_names_ = section(header_.callee_name_count, sizeof(std::uint32_t));
    backward_ = section(header_.backward_count, sizeof(PackedBackward));
    recorded_ = section(header_.recorded_call_count, sizeof(PackedRecordedCall));
    offsets_ = section(std::uint64_t(header_.string_count) + 1, sizeof(std::uint32_t));
    chars_ = section(header_.chars_size, 1);
  }

  const PackHeader& header() const { return header_; }
  PackedOperator op(std::uint32_t i) const { return record<PackedOperator>(operators_, i); }
  PackedKernel kernel(std::uint32_t i) const {
    if (i >= header_.kernel_count) fail("kernel " + std::to_string(i) + " out of range");
    return record<PackedKernel>(kernels_, i);
  }
  PackedFallback fallback(std::uint32_t i) const { return record<PackedFallback>(fallbacks_, i); }
  // The call recorded for kernel `kernel` (records are by kernel index), if any.
  std::optional<PackedGeneratedCall> generated_call(std::uint32_t kernel) const {
    std::uint32_t low = 0, high = header_.generated_call_count;
    while (low < high) {
      const std::uint32_t mid = low + (high - low) / 2;
      const auto call = record<PackedGeneratedCall>(calls_, mid);
      if (call.kernel == kernel) return call;
      if (call.kernel < kernel) low = mid + 1;
      else high = mid;
    }
    return std::nullopt;
  }
  // The out= check recorded for kernel `kernel` (records are by kernel index), if any.
  std::optional<PackedOutGradCheck> out_grad_check(std::uint32_t kernel) const {
    std::uint32_t low = 0, high = header_.out_grad_check_count;
    while (low < high) {
      const std::uint32_t mid = low + (high - low) / 2;
      const auto check = record<PackedOutGradCheck>(checks_, mid);
      if (check.kernel == kernel) return check;
      if (check.kernel < kernel) low = mid + 1;
      else high = mid;
    }
    return std::nullopt;
  }
  PackedCompositeSection composite_section(std::uint32_t i) const {
    const auto section = record<PackedCompositeSection>(sections_, i);
    if (std::uint64_t(section.first) + section.count > header_.composite_kernel_count)
      fail("composite section out of range");
    return section;
  }
  PackedCompositeKernel composite(std::uint32_t i) const { return record<PackedCompositeKernel>(composites_, i); }
  // The first of a section's entries whose kernel is not less than `kernel`.
  std::uint32_t first_composite_at_or_after(const PackedCompositeSection& section, std::uint32_t kernel) const {
    std::uint32_t low = section.first, high = section.first + section.count;
    while (low < high) {
      const std::uint32_t mid = low + (high - low) / 2;
      if (composite(mid).kernel < kernel) low = mid + 1;
      else high = mid;
    }
    return low;
  }
  // The operators operator `op`'s recorded calls name (string ids), if any.
  std::vector<std::uint32_t> callees(std::uint32_t op) const {
    std::uint32_t low = 0, high = header_.callee_operator_count;
    while (low < high) {
      const std::uint32_t mid = low + (high - low) / 2;
      const auto entry = record<PackedOperatorCallees>(callee_ops_, mid);
      if (entry.op == op) {
        if (std::uint64_t(entry.first) + entry.count > header_.callee_name_count) fail("callees out of range");
        std::vector<std::uint32_t> ids(entry.count);
        for (std::uint32_t i = 0; i < entry.count; ++i) ids[i] = record<std::uint32_t>(callee_names_, entry.first + i);
        return ids;
      }
      if (entry.op < op) low = mid + 1;
      else high = mid;
    }
    return {};
  }
  PackedBackward backward(std::uint32_t i) const {
    const PackedBackward entry = record<PackedBackward>(backward_, i);
    if (entry.flags & ~(k_backward_every_output_gradient | k_backward_contiguous_gradient | k_backward_mode_dependent))
      fail("unknown backward node flags");
    return entry;
  }
  std::vector<RecordedCall> recorded_calls(std::uint32_t first, std::uint32_t count) const {
    if (std::uint64_t(first) + count > header_.recorded_call_count) fail("recorded calls out of range");
    std::vector<RecordedCall> calls;
    calls.reserve(count);
    for (std::uint32_t i = first; i < first + count; ++i) {
      const auto packed = record<PackedRecordedCall>(recorded_, i);
      if (packed.when > static_cast<std::uint8_t>(CallWhen::SomeInputs)) fail("unknown call condition");
      calls.push_back({string(packed.op), static_cast<CallWhen>(packed.when)});
    }
    return calls;
  }
  std::string_view key_name(std::uint32_t i) const { return string(record<std::uint32_t>(key_names_, i)); }

  std::string_view string(std::uint32_t id) const {
    if (id >= header_.string_count) fail("string " + std::to_string(id) + " out of range");
    const auto begin = record<std::uint32_t>(offsets_, id), end = record<std::uint32_t>(offsets_, id + 1);
    if (begin > end || end > header_.chars_size) fail("string " + std::to_string(id) + " out of bounds");
    return data_.substr(chars_ + begin, end - begin);
  }

  [[noreturn]] void fail(const std::string& what) const {
    throw InputError(source_ + ": pack: " + what + "; rebuild dispatchctl");
  }

 private:
  template <typename T>
  T record(std::uint64_t section, std::uint32_t i) const {
    T out;
    std::memcpy(&out, data_.data() + section + std::uint64_t(i) * sizeof(T), sizeof(T));
    return out;
  }

  std::string_view data_;
  std::string source_;  // a copy: the caller's name may not outlive the view
  PackHeader header_{};
  std::uint64_t key_names_ = 0, operators_ = 0, kernels_ = 0, fallbacks_ = 0, calls_ = 0, checks_ = 0, sections_ = 0,
                composites_ = 0, callee_ops_ = 0, callee_names_ = 0, backward_ = 0, recorded_ = 0, offsets_ = 0,
                chars_ = 0;
};

// Which registration each loaded pack kernel became, as runs of consecutive
// kernels registered in a row (a whole load is one run): what the recorded
// calls, by pack kernel index, are decoded onto.
class LoadedKernels {
 public:
  struct Run {
    std::uint32_t first_kernel, first_sequence, count;
  };
  void add(std::uint32_t kernel, std::uint32_t sequence) {
    if (!runs_.empty()) {
      Run& last = runs_.back();
      if (kernel == last.first_kernel + last.count && sequence == last.first_sequence + last.count) {
        ++last.count;
        return;
      }
    }
    runs_.push_back({kernel, sequence, 1});
  }
  std::vector<Run> sorted() && {
    std::sort(runs_.begin(), runs_.end(), [](const Run& a, const Run& b) { return a.first_kernel < b.first_kernel; });
    return std::move(runs_);
  }

 private:
  std::vector<Run> runs_;
};

// A pack's recorded calls, decoded a section at a time when the registry is
// first asked for them (Registry::defer_composite_calls), onto the kernels
// this load registered.
class PackCompositeCalls final : public DeferredCompositeCalls {
 public:
  PackCompositeCalls(PackView pack, std::vector<LoadedKernels::Run> runs, std::vector<std::optional<Key>> kinds)
      : pack_(std::move(pack)), runs_(std::move(runs)), kinds_(std::move(kinds)) {}

  void decode(std::optional<Key> kind, const Add& add) const override {
    const auto section = std::find(kinds_.begin(), kinds_.end(), kind);
    if (section == kinds_.end()) return;
    const PackedCompositeSection s = pack_.composite_section(static_cast<std::uint32_t>(section - kinds_.begin()));
    const std::uint32_t end = s.first + s.count;
    for (const LoadedKernels::Run& run : runs_)
      for (std::uint32_t i = pack_.first_composite_at_or_after(s, run.first_kernel); i < end; ++i) {
        const PackedCompositeKernel entry = pack_.composite(i);
        if (entry.kernel >= run.first_kernel + run.count) break;
        if (entry.raises_when > static_cast<std::uint8_t>(CallWhen::SomeInputs)) pack_.fail("unknown raise condition");
        CompositeCalls calls;
        calls.calls = pack_.recorded_calls(entry.first_call, entry.call_count);
        if (entry.raises != k_no_string) calls.raises = pack_.string(entry.raises);
        if (entry.raises_type != k_no_string) calls.raises_type = pack_.string(entry.raises_type);
        calls.raises_when = static_cast<CallWhen>(entry.raises_when);
        calls.samples = entry.samples;
        add(run.first_sequence + (entry.kernel - run.first_kernel), std::move(calls));
      }
  }

 private:
  PackView pack_;
  std::vector<LoadedKernels::Run> runs_;  // by first_kernel
  std::vector<std::optional<Key>> kinds_;  // per section: its kind (nullopt: the main recording)
};

std::vector<Key> catalogue_keys(const PackView& pack, const Catalogue& cat) {
  std::vector<Key> keys(pack.header().key_count);
  for (std::uint32_t i = 0; i < keys.size(); ++i) {
    const auto k = cat.find(pack.key_name(i));
    if (!k) pack.fail("key '" + std::string(pack.key_name(i)) + "' is not one of PyTorch " + std::string(cat.version()));
    keys[i] = *k;
  }
  return keys;
}

// The pack's strings outlive the registry: they are kept, not copied.
// `callees`: the operators its generated composites call, appended; `kernels`:
// where its kernels went.
void load_operator(Registry& registry, const PackView& pack, const PackedOperator& op, std::string_view name,
                   const std::vector<Key>& keys, const std::string& source, std::vector<std::string_view>& callees,
                   LoadedKernels& kernels) {
  constexpr auto keep = Registry::Strings::Keep;
  if (std::uint64_t(op.first_kernel) + op.kernel_count > pack.header().kernel_count)
    pack.fail("operator '" + std::string(name) + "' has kernels out of range");
  registry.declare(name, keep, op.kernel_count);
  if (op.schema != k_no_string) {
    if (op.alias_analysis >= std::size(k_alias_analysis_kinds)) pack.fail("unknown alias analysis kind");
    Schema schema;
    schema.text = pack.string(op.schema);
    schema.debug = pack.string(op.schema_debug);
    schema.alias_analysis = k_alias_analysis_kinds[op.alias_analysis];
    schema.alias_analysis_explicit = op.alias_analysis_explicit != 0;
    schema.origin = Origin{source, {}, static_cast<int>(op.schema_line)};
    registry.define(name, schema, keep);
  }
  for (std::uint32_t i = 0; i < op.kernel_count; ++i) {
    const PackedKernel packed = pack.kernel(op.first_kernel + i);
    if (packed.key >= keys.size()) pack.fail("key index out of range");
    Kernel kernel;
    kernel.key = keys[packed.key];
    kernel.debug = pack.string(packed.debug);
    if (packed.signature != k_no_string) kernel.signature = pack.string(packed.signature);
    kernel.fallthrough = packed.flags & k_kernel_fallthrough;
    kernel.boxed = packed.flags & k_kernel_boxed;
    kernel.unboxed = packed.flags & k_kernel_unboxed;
    kernel.origin = Origin{source, {}, static_cast<int>(packed.line)};
    registry.impl(name, kernel, keep);
    if (const auto call = pack.generated_call(op.first_kernel + i)) {
      if (call->kind > static_cast<std::uint8_t>(GeneratedCallKind::AutogenFunctional))
        pack.fail("unknown generated call kind");
      const std::string_view callee = pack.string(call->callee);
      registry.record_generated_call(registry.find(name)->registrations.back(), callee,
                                     static_cast<GeneratedCallKind>(call->kind), keep);
      callees.push_back(callee);
    }
    kernels.add(op.first_kernel + i, registry.find(name)->registrations.back().sequence);
    if (const auto check = pack.out_grad_check(op.first_kernel + i))
      registry.record_out_grad_check(registry.find(name)->registrations.back(), names(pack.string(check->inputs)),
                                     names(pack.string(check->outputs)), keep);
  }
}

// A fallback is registered as import_torch_fallbacks registers it from the
// release's fallbacks.json: origin "SOURCE fallbacks (/KEY)".
void load_fallbacks(Registry& registry, const PackView& pack, const std::vector<Key>& keys,
                    const std::string& source) {
  for (std::uint32_t i = 0; i < pack.header().fallback_count; ++i) {
    const PackedFallback packed = pack.fallback(i);
    if (packed.key >= keys.size()) pack.fail("fallback key index out of range");
    Fallback fb;
    fb.key = keys[packed.key];
    if (!registry.catalogue().is_runtime(fb.key))
      pack.fail("fallback key '" + registry.catalogue().name(fb.key) + "' is not a runtime key");
    fb.debug = pack.string(packed.debug);
    fb.fallthrough = packed.flags & k_kernel_fallthrough;
    const std::string pointer = "/" + registry.catalogue().name(fb.key);
    fb.origin = Origin{source, pointer, 0};
    registry.fallback(std::move(fb));
  }
}

// The first operator whose name is not less than `prefix` (names are sorted;
// the pack tool writes them so, and a damaged order only loads fewer).
std::uint32_t first_at_or_after(const PackView& pack, std::string_view prefix) {
  std::uint32_t low = 0, high = pack.header().operator_count;
  while (low < high) {
    const std::uint32_t mid = low + (high - low) / 2;
    if (pack.string(pack.op(mid).name) < prefix) low = mid + 1;
    else high = mid;
  }
  return low;
}

}  // namespace

void load_pack(Registry& registry, std::string_view data, const std::string& source, const OperatorFilter& only) {
  const PackView pack(data, source);
  const std::vector<Key> keys = catalogue_keys(pack, registry.catalogue());
  const SignatureChecksOff off(registry);  // PyTorch accepted what it printed
  load_fallbacks(registry, pack, keys, source + " fallbacks");
  if (pack.header().out_grad_check_count > 0) registry.mark_out_grad_checks_known();
  if (pack.header().composite_calls_backend != k_no_string)
    registry.set_composite_calls_backend(pack.string(pack.header().composite_calls_backend));
  for (std::uint32_t i = 0; i < pack.header().backward_count; ++i) {
    const PackedBackward entry = pack.backward(i);
    std::vector<RecordedCall> calls = pack.recorded_calls(entry.first_call, entry.call_count);
    if (entry.op == k_no_string) registry.record_backward_seed(std::move(calls), Registry::Strings::Keep);
    else registry.record_backward_calls(pack.string(entry.op), std::move(calls), Registry::Strings::Keep, entry.flags);
  }
  // The recorded calls' sections, decoded when first asked for (a command that
  // never follows a composite never reads them).
  std::vector<std::optional<Key>> kinds;
  std::vector<Key> kind_keys;
  for (std::uint32_t i = 0; i < pack.header().composite_section_count; ++i) {
    const PackedCompositeSection section = pack.composite_section(i);
    if (section.kind == k_no_string) {
      kinds.emplace_back();
      continue;
    }
    const auto kind = registry.catalogue().find(pack.string(section.kind));
    if (!kind) pack.fail("unknown kind key " + std::string(pack.string(section.kind)));
    kinds.emplace_back(*kind);
    kind_keys.push_back(*kind);
  }
  LoadedKernels loaded;
  auto defer_composite_calls = [&] {
    if (kinds.empty()) return;
    const bool main = std::find(kinds.begin(), kinds.end(), std::nullopt) != kinds.end();
    registry.defer_composite_calls(std::make_shared<PackCompositeCalls>(pack, std::move(loaded).sorted(), kinds),
                                   main, kind_keys);
  };
  std::vector<std::string_view> callees;
  auto load_unfiltered = [&](std::uint32_t i) {
    const PackedOperator op = pack.op(i);
    const std::string_view name = pack.string(op.name);
    if (name.find("::") == std::string_view::npos) pack.fail("operator name '" + std::string(name) + "' has no namespace");
    load_operator(registry, pack, op, name, keys, source, callees, loaded);
    // What its recorded calls name, any kind's: a filtered load loads it as a
    // generated composite's callee, without decoding the calls themselves.
    if (only)
      for (const std::uint32_t callee : pack.callees(i)) callees.push_back(pack.string(callee));
  };
  auto load = [&](std::uint32_t i) {
    if (!only || only(pack.string(pack.op(i).name))) load_unfiltered(i);
  };
  // What the loaded operators' generated composites call, and so on: a row
  // of theirs is what the callee's row at that key is (table/outcome.h).
  auto load_callees = [&] {
    while (!callees.empty()) {
      const std::string_view callee = callees.back();
      callees.pop_back();
      if (registry.find(callee)) continue;
      const std::uint32_t i = first_at_or_after(pack, callee);
      if (i < pack.header().operator_count && pack.string(pack.op(i).name) == callee) load_unfiltered(i);
    }
  };
  const auto* prefixed = only.target<OperatorPrefixes>();
  if (!prefixed) {
    if (!only) registry.reserve_operators(pack.header().operator_count);
    for (std::uint32_t i = 0; i < pack.header().operator_count; ++i) load(i);
    if (only) load_callees();
    defer_composite_calls();
    return;
  }
  // Only the operators whose names start with a prefix, in pack (name) order.
  std::vector<std::uint32_t> candidates;
  for (const std::string& prefix : prefixed->prefixes)
    for (std::uint32_t i = first_at_or_after(pack, prefix); i < pack.header().operator_count; ++i) {
      if (!pack.string(pack.op(i).name).starts_with(prefix)) break;
      candidates.push_back(i);
    }
  std::sort(candidates.begin(), candidates.end());
  candidates.erase(std::unique(candidates.begin(), candidates.end()), candidates.end());
  for (const std::uint32_t i : candidates) load(i);
  load_callees();
  defer_composite_calls();
}

std::vector<std::string_view> pack_operator_names(std::string_view data, const std::string& source) {
  const PackView pack(data, source);
  std::vector<std::string_view> names;
  names.reserve(pack.header().operator_count);
  for (std::uint32_t i = 0; i < pack.header().operator_count; ++i) names.push_back(pack.string(pack.op(i).name));
  return names;
}

}  // namespace dispatchctl
