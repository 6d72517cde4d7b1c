#include "registry/registry.h"

#include "keys/profile.h"

#include <algorithm>

#include "registry/signature_check.h"

namespace dispatchctl {

Operator& Registry::entry(std::string_view op_name, Strings strings) {
  if (const auto at = index_.find(op_name, name_of()); at != NameIndex::k_none) return operators_[at];
  Operator& op = operators_.emplace_back();
  op.name = kept(op_name, strings);
  index_.insert(op.name, static_cast<std::uint32_t>(operators_.size() - 1), name_of());
  return op;
}

void Registry::reserve_operators(std::size_t more) {
  operators_.reserve(operators_.size() + more);
  index_.reserve(operators_.size() + more, name_of());
}

void Registry::declare(std::string_view op_name, Strings strings, std::size_t kernels) {
  Operator& op = entry(op_name, strings);
  op.registrations.reserve(op.registrations.size() + kernels);
}

namespace {
// PyTorch refuses a C++ kernel whose inferred schema disagrees with the
// operator's schema (docs/dispatch-semantics.md §9); its message, on one line.
std::optional<std::string> signature_problem(std::string_view op_name, const Schema& schema,
                                             const Kernel& kernel) {
  if (!kernel.signature) return std::nullopt;
  auto reason = schema_difference(schema.text, *kernel.signature);
  if (!reason) return std::nullopt;
  return "Inferred operator schema for a C++ kernel function doesn't match the "
         "expected function schema. operator: " +
         std::string(op_name) + "; expected schema: " + std::string(schema.text) + " (" +
         std::string(schema.debug) + "); inferred schema: " + std::string(*kernel.signature) + " (" +
         std::string(kernel.debug) + "); reason: " + *reason +
         " Fix the kernel's \"signature\" or the operator's \"schema\".";
}
}  // namespace

void Registry::refuse(Refusal what, const Origin& where, const std::string& message, std::string_view op,
                      std::string_view key) const {
  if (!on_refused) throw InputError(where.to_string() + ": " + message);
  on_refused(what, where, message, op, key);
}

void Registry::require_release(const std::string& version, const std::string& where) const {
  if (major_minor(version) == catalogue_->version()) return;
  throw InputError(where + ": torch_version '" + version + "' does not match '" + torch_version_ +
                   "' of the manifests loaded before; load manifests of one release");
}

void Registry::define(std::string_view op_name, Schema schema, Strings strings) {
  Operator& op = entry(op_name, strings);
  if (op.schema) {
    refuse(Refusal::DuplicateSchema, schema.origin,
           "Tried to register an operator (" + std::string(schema.text) +
               ") with the same name and overload name multiple times. "
               "Each overload's schema should only be registered with a single call to "
               "def(); the first is at " + op.schema->origin.to_string() +
               ". Remove one \"schema\" or give the operator another overload name.",
           op_name);
    return;
  }
  if (check_signatures)
    for (const auto& kernel : op.registrations)
      if (auto problem = signature_problem(op_name, schema, kernel)) {
        refuse(Refusal::SignatureMismatch, kernel.origin, *problem, op_name, catalogue_->name(kernel.key));
        return;
      }
  schema.text = kept(schema.text, strings);
  schema.debug = kept(schema.debug, strings);
  // Almost always one of PyTorch's three kinds: those need no copy.
  const auto* kind =
      std::find(std::begin(k_alias_analysis_kinds), std::end(k_alias_analysis_kinds), schema.alias_analysis);
  schema.alias_analysis = kind != std::end(k_alias_analysis_kinds) ? *kind : kept(schema.alias_analysis, strings);
  op.schema = schema;
}

void Registry::impl(std::string_view op_name, Kernel kernel, Strings strings) {
  Operator& op = entry(op_name, strings);
  if (op.schema && check_signatures)
    if (auto problem = signature_problem(op_name, *op.schema, kernel)) {
      refuse(Refusal::SignatureMismatch, kernel.origin, *problem, op_name, catalogue_->name(kernel.key));
      return;
    }
  // A registration naming Undefined is a catch-all, stored as CIA (§3.1).
  if (kernel.key == k_undefined)
    kernel.key = *catalogue_->alias(Alias::CompositeImplicitAutograd);
  kernel.sequence = sequence_++;
  kernel.debug = kept(kernel.debug, strings);
  if (!kernel.source_known) kernel.source = parse_kernel_source(kernel.debug);
  kernel.source_known = true;
  if (kernel.signature) kernel.signature = kept(*kernel.signature, strings);
  const Key key = kernel.key;
  op.registrations.push_back(kernel);
  op.present[key >> 6] |= 1ull << (key & 63);
}

bool is_autograd_not_implemented(const Kernel& kernel) {
  return !kernel.signature && kernel.boxed && !kernel.unboxed && !kernel.fallthrough &&
         kernel.source.generator == KernelGenerator::VariableType;
}

std::string_view generated_call_kind_id(GeneratedCallKind kind) {
  switch (kind) {
    case GeneratedCallKind::StructuredOut: return "structured_out";
    case GeneratedCallKind::AutogenOut: return "autogen_out";
    case GeneratedCallKind::AutogenFunctional: return "autogen_functional";
  }
  return "";
}

void Registry::record_generated_call(const Kernel& kernel, std::string_view callee, GeneratedCallKind kind,
                                     Strings strings) {
  generated_calls_[kernel.sequence] = GeneratedCall{kept(callee, strings), kind};
}

void Registry::record_out_grad_check(const Kernel& kernel, const std::vector<std::string_view>& inputs,
                                     const std::vector<std::string_view>& outputs, Strings strings) {
  OutGradCheck check;
  for (const std::string_view name : inputs) check.inputs.push_back(kept(name, strings));
  for (const std::string_view name : outputs) check.outputs.push_back(kept(name, strings));
  out_grad_checks_[kernel.sequence] = std::move(check);
}

std::string_view call_when_id(CallWhen when) { return when == CallWhen::Always ? "always" : "some_inputs"; }

void Registry::record_composite_calls(const Kernel& kernel, CompositeCalls calls, Strings strings) {
  decode_all_deferred();
  for (auto& c : calls.calls) c.op = kept(c.op, strings);
  if (calls.raises) calls.raises = kept(*calls.raises, strings);
  if (calls.raises_type) calls.raises_type = kept(*calls.raises_type, strings);
  composite_calls_[kernel.sequence] = std::move(calls);
}

void Registry::record_kind_composite_calls(const Kernel& kernel, Key kind, CompositeCalls calls, Strings strings) {
  decode_all_deferred();
  for (auto& c : calls.calls) c.op = kept(c.op, strings);
  if (calls.raises) calls.raises = kept(*calls.raises, strings);
  if (calls.raises_type) calls.raises_type = kept(*calls.raises_type, strings);
  kind_composite_calls_[(std::uint64_t{kernel.sequence} << 16) | kind] = std::move(calls);
  if (std::find(composite_call_kinds_.begin(), composite_call_kinds_.end(), kind) == composite_call_kinds_.end())
    composite_call_kinds_.push_back(kind);
}

std::size_t Registry::composite_call_count() const {
  decode_all_deferred();
  return composite_calls_.size() + kind_composite_calls_.size();
}

void Registry::defer_composite_calls(std::shared_ptr<const DeferredCompositeCalls> source, bool main,
                                     const std::vector<Key>& kinds) {
  decode_all_deferred();  // one deferred source at a time
  deferred_ = std::move(source);
  main_deferred_ = main;
  kinds_deferred_ = kinds;
  for (const Key kind : kinds)
    if (std::find(composite_call_kinds_.begin(), composite_call_kinds_.end(), kind) == composite_call_kinds_.end())
      composite_call_kinds_.push_back(kind);
}

// The pack's strings outlive the registry (Strings::Keep): stored as decoded.
void Registry::decode_deferred(std::optional<Key> kind) const {
  if (kind) {
    const auto it = std::find(kinds_deferred_.begin(), kinds_deferred_.end(), *kind);
    if (it == kinds_deferred_.end()) return;
    kinds_deferred_.erase(it);
    deferred_->decode(kind, [&](std::uint32_t sequence, CompositeCalls calls) {
      kind_composite_calls_[(std::uint64_t{sequence} << 16) | *kind] = std::move(calls);
    });
  } else {
    if (!main_deferred_) return;
    main_deferred_ = false;
    deferred_->decode({}, [&](std::uint32_t sequence, CompositeCalls calls) {
      composite_calls_[sequence] = std::move(calls);
    });
  }
}

void Registry::decode_all_deferred() const {
  decode_deferred({});
  while (!kinds_deferred_.empty()) decode_deferred(kinds_deferred_.front());
}

void Registry::for_each_decoded_call(const std::function<void(const RecordedCall&)>& visit) const {
  for (const auto& [sequence, calls] : composite_calls_)
    for (const RecordedCall& c : calls.calls) visit(c);
  for (const auto& [sequence_kind, calls] : kind_composite_calls_)
    for (const RecordedCall& c : calls.calls) visit(c);
}

void Registry::record_backward_calls(std::string_view op_name, std::vector<RecordedCall> calls, Strings strings,
                                     std::uint8_t flags) {
  for (auto& c : calls) c.op = kept(c.op, strings);
  const std::string_view name = kept(op_name, strings);
  backward_calls_[name] = std::move(calls);
  if (flags) backward_flags_[name] = flags;
  else backward_flags_.erase(name);
}

std::uint8_t Registry::backward_flags(std::string_view op_name) const {
  const auto it = backward_flags_.find(op_name);
  return it == backward_flags_.end() ? 0 : it->second;
}

const std::vector<RecordedCall>* Registry::backward_calls(std::string_view op_name) const {
  if (backward_calls_.empty()) return nullptr;
  const auto it = backward_calls_.find(op_name);
  return it == backward_calls_.end() ? nullptr : &it->second;
}

void Registry::record_backward_seed(std::vector<RecordedCall> calls, Strings strings) {
  for (auto& c : calls) c.op = kept(c.op, strings);
  backward_seed_ = std::move(calls);
}

void Registry::impl_carried(const Registry& from, const Kernel& was, std::string_view op_name, Kernel kernel,
                            bool with_generated_call) {
  impl(op_name, kernel);
  const Operator* op = find(op_name);
  if (!op || op->registrations.empty() || op->registrations.back().sequence + 1 != sequence_) return;  // refused
  const Kernel& now = op->registrations.back();
  if (const GeneratedCall* call = from.generated_call(was); call && with_generated_call)
    record_generated_call(now, call->callee, call->kind);
  if (const OutGradCheck* check = from.out_grad_check(was))
    record_out_grad_check(now, {check->inputs.begin(), check->inputs.end()},
                          {check->outputs.begin(), check->outputs.end()});
  if (const CompositeCalls* calls = from.composite_calls(was)) record_composite_calls(now, *calls);
  for (const Key kind : from.composite_call_kinds())
    if (const CompositeCalls* calls = from.kind_composite_calls(was, kind)) record_kind_composite_calls(now, kind, *calls);
}

void Registry::carry_registry_tables(const Registry& from) {
  if (from.out_grad_checks_known()) mark_out_grad_checks_known();
  for (const auto& [name, calls] : from.backward_calls_)
    record_backward_calls(name, calls, Strings::Copy, from.backward_flags(name));
  if (!from.backward_seed_.empty()) record_backward_seed(from.backward_seed_);
  composite_calls_backend_ = from.composite_calls_backend_;
}

void Registry::fallback(Fallback fb) {
  if (fallback_slot_[fb.key] >= 0) {
    const Fallback& previous = fallbacks_[fallback_slot_[fb.key]];
    refuse(Refusal::DuplicateFallback, fb.origin,
           "Tried to register multiple backend fallbacks for the same dispatch key " +
               catalogue_->name(fb.key) + "; previous registration " + std::string(previous.debug) + " (" +
               previous.origin.to_string() + "), new registration " + std::string(fb.debug) +
               ". Remove one of the two fallbacks.",
           {}, catalogue_->name(fb.key));
    return;
  }
  fb.sequence = sequence_++;
  fb.debug = pool_->keep(fb.debug);
  fb.source = parse_kernel_source(fb.debug);
  fallback_slot_[fb.key] = static_cast<int>(fallbacks_.size());
  fallbacks_.push_back(std::move(fb));
}

const Operator* Registry::find(std::string_view op_name) const {
  const auto at = index_.find(op_name, name_of());
  return at == NameIndex::k_none ? nullptr : &operators_[at];
}

std::vector<const Operator*> Registry::sorted_operators() const {
  std::vector<const Operator*> out;
  out.reserve(operators_.size());
  for (const auto& op : operators_) out.push_back(&op);
  std::sort(out.begin(), out.end(),
            [](const Operator* a, const Operator* b) { return a->name < b->name; });
  return out;
}

const Fallback* Registry::fallback_for(Key k) const {
  return fallback_slot_[k] < 0 ? nullptr : &fallbacks_[fallback_slot_[k]];
}

}  // namespace dispatchctl
