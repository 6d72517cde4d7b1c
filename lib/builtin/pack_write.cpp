#include "builtin/pack.h"

#include <algorithm>
#include <cstring>
#include <deque>
#include <tuple>
#include <unordered_map>

#include "util/join.h"

namespace dispatchctl {
namespace {

class PackWriter {
 public:
  explicit PackWriter(const Catalogue& cat) : cat_(cat) {}

  std::uint32_t string_id(std::string_view text) {
    auto [it, inserted] = string_ids_.try_emplace(text, static_cast<std::uint32_t>(strings_.size()));
    if (inserted) strings_.push_back(text);
    return it->second;
  }
  // A list of names as the pack stores it: one string, comma-separated.
  std::uint32_t list_id(const std::vector<Text>& names) { return string_id(joined_.emplace_back(join(names, ","))); }

  std::uint16_t key_index(Key key) {
    auto [it, inserted] = key_indices_.try_emplace(key, static_cast<std::uint16_t>(key_names_.size()));
    if (inserted) key_names_.push_back(string_id(cat_.name(key)));
    return it->second;
  }

  void add(const Registry& registry, const Operator& op) {
    PackedOperator packed{};
    packed.name = string_id(op.name);
    packed.schema = packed.schema_debug = k_no_string;
    if (op.schema) {
      packed.schema = string_id(op.schema->text);
      packed.schema_debug = string_id(op.schema->debug);
      packed.schema_line = static_cast<std::uint32_t>(op.schema->origin.line());
      for (std::uint8_t i = 0; i < std::size(k_alias_analysis_kinds); ++i)
        if (op.schema->alias_analysis == k_alias_analysis_kinds[i]) packed.alias_analysis = i;
      packed.alias_analysis_explicit = op.schema->alias_analysis_explicit;
    }
    packed.first_kernel = static_cast<std::uint32_t>(kernels_.size());
    packed.kernel_count = static_cast<std::uint32_t>(op.registrations.size());
    std::vector<std::string_view> callees;  // what its recorded calls name, every section's
    // Registration order: replaying it rebuilds each key's newest-first list.
    for (const Kernel& k : op.registrations) {
      if (const GeneratedCall* call = registry.generated_call(k)) {
        PackedGeneratedCall pc{};
        pc.kernel = static_cast<std::uint32_t>(kernels_.size());
        pc.callee = string_id(call->callee);
        pc.kind = static_cast<std::uint8_t>(call->kind);
        calls_.push_back(pc);
      }
      const auto kernel = static_cast<std::uint32_t>(kernels_.size());
      if (const CompositeCalls* calls = registry.composite_calls(k)) add_composite(0, kernel, *calls, callees);
      for (std::size_t i = 0; i < kinds_.size(); ++i)
        if (const CompositeCalls* calls = registry.kind_composite_calls(k, kinds_[i]))
          add_composite(i + 1, kernel, *calls, callees);
      if (const OutGradCheck* check = registry.out_grad_check(k))
        checks_.push_back({static_cast<std::uint32_t>(kernels_.size()), list_id(check->inputs),
                           list_id(check->outputs)});
      PackedKernel pk{};
      pk.debug = string_id(k.debug);
      pk.signature = k.signature ? string_id(*k.signature) : k_no_string;
      pk.line = static_cast<std::uint32_t>(k.origin.line());
      pk.key = key_index(k.key);
      pk.flags = (k.fallthrough ? k_kernel_fallthrough : 0) | (k.boxed ? k_kernel_boxed : 0) |
                 (k.unboxed ? k_kernel_unboxed : 0);
      kernels_.push_back(pk);
    }
    if (!callees.empty()) {
      callee_ops_.push_back({static_cast<std::uint32_t>(operators_.size()),
                             static_cast<std::uint32_t>(callee_names_.size()), static_cast<std::uint32_t>(callees.size())});
      for (const std::string_view callee : callees) callee_names_.push_back(string_id(callee));
    }
    operators_.push_back(packed);
  }

  // The kinds in key order, not the order first recorded (which differs
  // between a recording file and a pack read back), so a pack written again
  // from its own registry is the same bytes.
  void set_kinds(std::vector<Key> kinds) {
    std::sort(kinds.begin(), kinds.end());
    kinds_ = std::move(kinds);
    sections_.resize(kinds_.size() + 1);
  }

  // Section by section, each section's calls together: a command asking for
  // one kind touches only that kind's pages.
  void add_composite_sections() {
    for (std::size_t i = 0; i < sections_.size(); ++i) {
      if (sections_[i].empty()) continue;
      section_records_.push_back({i == 0 ? k_no_string : string_id(cat_.name(kinds_[i - 1])),
                                  static_cast<std::uint32_t>(composites_.size()),
                                  static_cast<std::uint32_t>(sections_[i].size())});
      for (const auto& [kernel, calls] : sections_[i]) {
        PackedCompositeKernel pc{};
        pc.kernel = kernel;
        std::tie(pc.first_call, pc.call_count) = add_calls(calls->calls);
        pc.raises = calls->raises ? string_id(*calls->raises) : k_no_string;
        pc.raises_type = calls->raises_type ? string_id(*calls->raises_type) : k_no_string;
        pc.raises_when = static_cast<std::uint8_t>(calls->raises_when);
        pc.samples = calls->samples;
        composites_.push_back(pc);
      }
    }
  }

  // One kernel's calls in section `section` (0: the main recording), and the
  // operators they name in `callees`, each once.
  void add_composite(std::size_t section, std::uint32_t kernel, const CompositeCalls& calls,
                     std::vector<std::string_view>& callees) {
    sections_[section].push_back({kernel, &calls});
    for (const RecordedCall& c : calls.calls)
      if (std::find(callees.begin(), callees.end(), std::string_view(c.op)) == callees.end()) callees.push_back(c.op);
  }

  std::pair<std::uint32_t, std::uint32_t> add_calls(const std::vector<RecordedCall>& calls) {
    const auto first = static_cast<std::uint32_t>(recorded_.size());
    for (const RecordedCall& c : calls) {
      PackedRecordedCall packed{};
      packed.op = string_id(c.op);
      packed.when = static_cast<std::uint8_t>(c.when);
      recorded_.push_back(packed);
    }
    return {first, static_cast<std::uint32_t>(calls.size())};
  }

  void add_backward(std::uint32_t op, const std::vector<RecordedCall>& calls, std::uint8_t flags = 0) {
    PackedBackward packed{};
    packed.op = op;
    packed.flags = flags;
    std::tie(packed.first_call, packed.call_count) = add_calls(calls);
    backward_.push_back(packed);
  }

  void add(const Fallback& fb) {
    PackedFallback packed{};
    packed.debug = string_id(fb.debug);
    packed.key = key_index(fb.key);
    packed.flags = fb.fallthrough ? k_kernel_fallthrough : 0;
    fallbacks_.push_back(packed);
  }

  std::string finish() const {
    std::string chars;
    std::vector<std::uint32_t> offsets{0};
    for (auto s : strings_) {
      chars += s;
      offsets.push_back(static_cast<std::uint32_t>(chars.size()));
    }
    PackHeader header{};
    std::memcpy(header.magic, k_pack_magic, sizeof header.magic);
    header.key_count = static_cast<std::uint32_t>(key_names_.size());
    header.operator_count = static_cast<std::uint32_t>(operators_.size());
    header.kernel_count = static_cast<std::uint32_t>(kernels_.size());
    header.fallback_count = static_cast<std::uint32_t>(fallbacks_.size());
    header.string_count = static_cast<std::uint32_t>(strings_.size());
    header.chars_size = static_cast<std::uint32_t>(chars.size());
    header.generated_call_count = static_cast<std::uint32_t>(calls_.size());
    header.out_grad_check_count = static_cast<std::uint32_t>(checks_.size());
    header.composite_kernel_count = static_cast<std::uint32_t>(composites_.size());
    header.backward_count = static_cast<std::uint32_t>(backward_.size());
    header.recorded_call_count = static_cast<std::uint32_t>(recorded_.size());
    header.composite_calls_backend = calls_backend_;
    header.composite_section_count = static_cast<std::uint32_t>(section_records_.size());
    header.callee_operator_count = static_cast<std::uint32_t>(callee_ops_.size());
    header.callee_name_count = static_cast<std::uint32_t>(callee_names_.size());
    std::string out;
    append(out, &header, sizeof header);
    append(out, key_names_.data(), key_names_.size() * sizeof(std::uint32_t));
    append(out, operators_.data(), operators_.size() * sizeof(PackedOperator));
    append(out, kernels_.data(), kernels_.size() * sizeof(PackedKernel));
    append(out, fallbacks_.data(), fallbacks_.size() * sizeof(PackedFallback));
    append(out, calls_.data(), calls_.size() * sizeof(PackedGeneratedCall));
    append(out, checks_.data(), checks_.size() * sizeof(PackedOutGradCheck));
    append(out, section_records_.data(), section_records_.size() * sizeof(PackedCompositeSection));
    append(out, composites_.data(), composites_.size() * sizeof(PackedCompositeKernel));
    append(out, callee_ops_.data(), callee_ops_.size() * sizeof(PackedOperatorCallees));
    append(out, callee_names_.data(), callee_names_.size() * sizeof(std::uint32_t));
    append(out, backward_.data(), backward_.size() * sizeof(PackedBackward));
    append(out, recorded_.data(), recorded_.size() * sizeof(PackedRecordedCall));
    append(out, offsets.data(), offsets.size() * sizeof(std::uint32_t));
    out += chars;
    return out;
  }

 private:
  static void append(std::string& out, const void* data, size_t size) {
    out.append(static_cast<const char*>(data), size);
  }

  const Catalogue& cat_;
  std::vector<std::string_view> strings_;  // views into the registry, which outlives the writer, or joined_
  std::deque<std::string> joined_;
  std::unordered_map<std::string_view, std::uint32_t> string_ids_;
  std::vector<std::uint32_t> key_names_;
  std::unordered_map<Key, std::uint16_t> key_indices_;
  std::vector<PackedOperator> operators_;
  std::vector<PackedKernel> kernels_;
  std::vector<PackedFallback> fallbacks_;
  std::vector<PackedGeneratedCall> calls_;
  std::vector<PackedOutGradCheck> checks_;
  std::vector<Key> kinds_;
  // Per section (0: the main recording, i: kinds_[i - 1]), its kernels' calls in kernel order.
  std::vector<std::vector<std::pair<std::uint32_t, const CompositeCalls*>>> sections_{1};
  std::vector<PackedCompositeSection> section_records_;
  std::vector<PackedCompositeKernel> composites_;
  std::vector<PackedOperatorCallees> callee_ops_;
  std::vector<std::uint32_t> callee_names_;
  std::vector<PackedBackward> backward_;
  std::vector<PackedRecordedCall> recorded_;

 public:
  std::uint32_t calls_backend_ = k_no_string;
};

}  // namespace

std::string write_pack(const Registry& registry) {
  static_assert(sizeof(PackHeader) == 68 && sizeof(PackedOperator) == 28 && sizeof(PackedKernel) == 16 &&
                sizeof(PackedFallback) == 8 && sizeof(PackedGeneratedCall) == 12 &&
                sizeof(PackedOutGradCheck) == 12 && sizeof(PackedCompositeKernel) == 28 &&
                sizeof(PackedCompositeSection) == 12 && sizeof(PackedOperatorCallees) == 12 &&
                sizeof(PackedBackward) == 16 && sizeof(PackedRecordedCall) == 8);
  PackWriter writer(registry.catalogue());
  // Names first: their characters lie together, in name order, so the name
  // search of a filtered load touches a few pages, not the whole pack.
  for (const Operator& op : registry.operators()) writer.string_id(op.name);
  writer.set_kinds(registry.composite_call_kinds());
  for (const Operator& op : registry.operators()) writer.add(registry, op);
  writer.add_composite_sections();
  for (const Fallback& fb : registry.fallbacks()) writer.add(fb);
  // Sorted by name: the reader finds an operator's entry by binary search.
  std::vector<std::string_view> backward_ops;
  for (const auto& [name, calls] : registry.all_backward_calls()) backward_ops.push_back(name);
  std::sort(backward_ops.begin(), backward_ops.end());
  for (const std::string_view name : backward_ops)
    writer.add_backward(writer.string_id(name), *registry.backward_calls(name), registry.backward_flags(name));
  if (!registry.backward_seed().empty()) writer.add_backward(k_no_string, registry.backward_seed());
  writer.calls_backend_ = writer.string_id(registry.composite_calls_backend());
  return writer.finish();
}

}  // namespace dispatchctl
