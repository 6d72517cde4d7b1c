// Register<Key>.cpp, RegisterBackendSelect.cpp and
// RegisterFunctionalization.cpp (docs/torchgen-rules.md §3).
#include <map>

#include "torchgen/grouping.h"
#include "torchgen/predict.h"

namespace dispatchctl::torchgen {
namespace {

constexpr const char* k_meta = "Meta";
constexpr const char* k_ceanf = "CompositeExplicitAutogradNonFunctional";

struct Emitter {
  std::vector<PredictedRegistration>& out;
  std::set<std::pair<std::string, std::string>> seen;
  void add(const NativeFunction& f, const std::string& key, const char* rule, const std::string& generator,
           const NativeFunction* calls = nullptr, GeneratedCallKind call_kind = GeneratedCallKind::StructuredOut) {
    const std::string op = f.func.full_name();
    if (!seen.emplace(op, key).second) return;
    out.push_back({op, key, rule, generator, f.loc});
    if (calls) {
      out.back().calls = calls->func.full_name();
      out.back().call_kind = call_kind;
    }
  }
};

std::string register_file(const std::string& key) { return "Register" + key + ".cpp"; }

bool writes_an_argument(const NativeFunction& f) {
  for (const auto& a : f.func.arguments)
    if (a.is_write()) return true;
  return false;
}

// What a generated variant's CompositeExplicitAutograd kernel calls
// (native_function_generation.py): gen_composite_out_kernel calls the
// functional op and copies into out=; gen_composite_functional_kernel calls
// the non-generated in-place op, else the mutable one, on clones.
const NativeFunction* generated_callee(const std::vector<NativeFunction>& fns, const SignatureGroup& group,
                                       SchemaKind kind, GeneratedCallKind& call_kind) {
  auto member = [&](SchemaKind k) -> const NativeFunction* {
    const auto it = group.members.find(k);
    return it == group.members.end() || fns[it->second].generated ? nullptr : &fns[it->second];
  };
  if (kind == SchemaKind::Out) {
    call_kind = GeneratedCallKind::AutogenOut;
    const auto it = group.members.find(SchemaKind::Functional);
    return it == group.members.end() ? nullptr : &fns[it->second];
  }
  if (kind != SchemaKind::Functional) return nullptr;
  call_kind = GeneratedCallKind::AutogenFunctional;
  if (const NativeFunction* inplace = member(SchemaKind::Inplace)) return inplace;
  return member(SchemaKind::Mutable);
}

}  // namespace

void predict_backend_kernels(const TorchgenModel& model, const std::vector<SignatureGroup>& groups,
                             const ReleaseRules& rules, const std::set<std::string>& compiled,
                             std::vector<PredictedRegistration>& out) {
  Emitter emit{out, {}};
  const auto& fns = model.functions;
  for (const SignatureGroup& group : groups) {
    const NativeFunction* group_out =
        group.is_full_group() ? &fns[group.members.at(SchemaKind::Out)] : nullptr;
    const bool structured = group_out && group_out->structured;
    for (const auto& [kind, index] : group.members) {
      const NativeFunction& f = fns[index];
      if (f.manual_kernel_registration) continue;
      for (const auto& key : compiled) {
        if (structured && key == k_meta) {
          emit.add(f, key, "structured-meta", register_file(key));
        } else if (structured && key == k_ceanf) {
          // register_dispatch_key.py: the wrapper runs the meta function, then at::OP_out (a fresh call).
          if (kind != SchemaKind::Out)
            emit.add(f, key, "structured-ceanf", register_file(key), group_out, GeneratedCallKind::StructuredOut);
        } else if (structured && group_out->dispatch.count(key) && group_out->dispatch.at(key)) {
          emit.add(f, key, "structured-backend", register_file(key));
        } else if (f.dispatch.count(key)) {
          const char* rule = f.generated ? "generated-cea" : f.dispatch_written ? "dispatch-entry" : "default-cia";
          GeneratedCallKind call_kind = GeneratedCallKind::AutogenOut;
          const NativeFunction* calls = f.generated ? generated_callee(fns, group, kind, call_kind) : nullptr;
          emit.add(f, key, rule, register_file(key), calls, call_kind);
        }
      }
      // RegisterDispatchKey generates a Meta kernel for unstructured inplace ops without one.
      const bool composite = f.has("CompositeImplicitAutograd") || f.has("CompositeExplicitAutograd") ||
                             f.has(k_ceanf);
      if (!structured && kind == SchemaKind::Inplace && compiled.count(k_meta) && !f.has(k_meta) && !composite &&
          f.func.returns.size() == 1)
        emit.add(f, k_meta, "inplace-meta", register_file(k_meta));
    }
  }
  for (const auto& f : fns) {
    const std::string name(unqualified_name(f.func));
    const bool excluded = (name.size() >= 5 && name.substr(name.size() - 5) == "_like") || name.rfind("new_", 0) == 0;
    if (has_tensor_options(f.func) && !excluded)
      emit.add(f, "BackendSelect", "backend-select", "RegisterBackendSelect.cpp");
    else if (rules.backend_select_template_ops.count(f.name()))
      emit.add(f, "BackendSelect", "backend-select-template", "RegisterBackendSelect.cpp");
  }
}

void predict_functionalization(const TorchgenModel& model, const std::vector<SignatureGroup>& groups,
                               const ReleaseRules& rules, std::vector<PredictedRegistration>& out) {
  const auto& fns = model.functions;
  std::vector<bool> skipped(fns.size(), false);
  for (const SignatureGroup& group : groups) {
    bool skip = false;
    for (const auto& [kind, index] : group.members) {
      const std::string name = fns[index].name();
      skip = skip || rules.functionalize_handwritten_groups.count(name) ||
             rules.functionalize_skipped_groups.count(name);
      if (!group.is_full_group() && rules.mutable_ops_not_using_functionalization.count(name))
        skipped[index] = true;
    }
    for (const auto& [kind, index] : group.members) skipped[index] = skipped[index] || skip;
  }
  Emitter emit{out, {}};
  for (size_t i = 0; i < fns.size(); ++i) {
    const NativeFunction& f = fns[i];
    if (skipped[i] || rules.functionalize_handwritten_ops.count(f.name())) continue;
    const char* rule = nullptr;
    const bool set_op = rules.set_is_not_a_view && unqualified_name(f.func) == "set_";
    if (f.is_view_op(rules.inplace_view_not_views) && !set_op && (!f.has_cia() || rules.functionalize_cia_views))
      rule = "functionalize-view";
    else if (writes_an_argument(f) && (!f.has_cia() || rules.functionalize_all_cia)) rule = "functionalize-mutating";
    else if (rules.functionalize_all_cia && f.has_cia()) rule = "functionalize-cia";
    if (rule) emit.add(f, "Functionalize", rule, "RegisterFunctionalization.cpp");
  }
}

std::set<std::string> operators_with_kernel_at(const TorchgenModel& model, const ReleaseRules& rules,
                                               const std::string& key) {
  std::vector<PredictedRegistration> registrations;
  predict_backend_kernels(model, group_by_signature(model.functions), rules, {key}, registrations);
  std::set<std::string> out;
  for (const PredictedRegistration& r : registrations)
    if (r.key == key) out.insert(r.op);
  return out;
}

std::set<std::string> compiled_keys(const ReleaseRules& rules, const std::set<std::string>& build_backends) {
  std::set<std::string> keys = rules.always_compiled_keys;
  for (const auto& backend : build_backends)
    if (auto it = rules.backend_keys.find(backend); it != rules.backend_keys.end())
      keys.insert(it->second.begin(), it->second.end());
  return keys;
}

}  // namespace dispatchctl::torchgen
