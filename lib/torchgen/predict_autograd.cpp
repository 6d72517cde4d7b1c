// tools/autograd: VariableType (use_derived + derivatives.yaml dispatch keys),
// ADInplaceOrViewType and TraceType (docs/torchgen-rules.md §3).
#include <map>
#include <unordered_map>

#include "torchgen/predict.h"

namespace dispatchctl::torchgen {
namespace {

// cpp.name(): the base name, "_out" for out= (and scratch) ops.
std::string cpp_name(const FunctionSchema& s) { return s.name.to_string() + (s.has_out() ? "_out" : ""); }

bool is_foreach(const NativeFunction& f) { return f.func.name.base.rfind("_foreach_", 0) == 0; }

// match_differentiability_info, plus load_derivatives' view_copy infos.
class InfoMatcher {
 public:
  explicit InfoMatcher(const TorchgenModel& model) {
    std::unordered_map<std::string, const NativeFunction*> by_name;
    std::vector<std::pair<const FunctionSchema*, const DifferentiabilityInfo*>> copies;
    for (const auto& f : model.functions) by_name[f.name()] = &f;
    for (const auto& info : model.derivatives) {
      const std::string name = info.func.op_name();
      auto view = by_name.find(name);
      if (view == by_name.end()) continue;
      const FunctionSchema& v = view->second->func;
      auto copy = by_name.find(v.name.to_string() + "_copy" + (v.overload.empty() ? "" : "." + v.overload));
      if (copy == by_name.end() || !copy->second->tags.count("view_copy")) continue;
      copies.emplace_back(&copy->second->func, &info);
    }
    for (const auto& info : model.derivatives) index(info.func, &info);
    for (const auto& [schema, info] : copies)
      if (!by_schema_.count(schema->to_string())) index(*schema, info);  // a written formula wins
  }

  const DifferentiabilityInfo* find(const NativeFunction& f) const {
    const bool generated = f.tags.count("generated") != 0;
    if (generated && f.func.kind() == SchemaKind::Out) return nullptr;
    if (auto it = by_schema_.find(f.func.to_string()); it != by_schema_.end()) return it->second;
    const std::string sig = f.func.signature(true).to_string();
    if (auto it = functional_.find(sig); it != functional_.end() && !is_foreach(f)) return it->second;
    if (auto it = non_functional_.find(sig); generated && it != non_functional_.end()) return it->second;
    return nullptr;
  }

 private:
  void index(const FunctionSchema& schema, const DifferentiabilityInfo* info) {
    by_schema_[schema.to_string()] = info;
    (schema.kind() == SchemaKind::Functional ? functional_ : non_functional_)[schema.signature(true).to_string()] = info;
  }

  std::map<std::string, const DifferentiabilityInfo*> by_schema_;
  std::map<std::string, const DifferentiabilityInfo*> functional_, non_functional_;
};

}  // namespace

void predict_autograd(const TorchgenModel& model, const ReleaseRules& rules,
                      std::vector<PredictedRegistration>& out) {
  const InfoMatcher matcher(model);
  for (const auto& f : model.functions) {
    const std::string op = f.func.full_name();
    if (rules.manual_autograd.count(cpp_name(f.func))) continue;
    out.push_back({op, "Tracer", "tracer", "TraceType.cpp", f.loc});
    const DifferentiabilityInfo* info = matcher.find(f);
    if (!f.is_abstract_for_autograd() && !(info && info->has_derivatives())) continue;
    if (!info) {
      out.push_back({op, "Autograd", "autograd", "VariableType.cpp", f.loc});
    } else {
      for (const auto& [key, formula] : info->keys) {
        const bool default_key = key == "Default";
        out.push_back({op, default_key ? "Autograd" : key, default_key ? "autograd" : "autograd-dispatch-key",
                       "VariableType.cpp", info->loc});
      }
    }
    const auto kind = f.func.kind();
    const bool modifies = kind == SchemaKind::Inplace || kind == SchemaKind::Out;
    if (rules.view_functions.count(f.func.name.base) || (modifies && !f.func.returns.empty()))
      out.push_back({op, "ADInplaceOrView", "ad-inplace-or-view", "ADInplaceOrViewType.cpp", f.loc});
  }
}

Predictions predict(const TorchgenModel& model, const ReleaseRules& rules, const std::set<std::string>& compiled) {
  Predictions p;
  for (const auto& f : model.functions)
    p.operators.push_back({f.func.full_name(), f.func.dispatcher_text(rules.dimname_prints_as_str), f.loc, f.generated});
  const std::vector<SignatureGroup> groups = group_by_signature(model.functions);
  predict_backend_kernels(model, groups, rules, compiled, p.registrations);
  predict_functionalization(model, groups, rules, p.registrations);
  predict_autograd(model, rules, p.registrations);
  return p;
}

}  // namespace dispatchctl::torchgen
