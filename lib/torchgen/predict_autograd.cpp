// tools/autograd: VariableType (use_derived + derivatives.yaml dispatch keys),
// ADInplaceOrViewType and TraceType (torchgen-rules.md §3).
#include <map>
#include <unordered_map>

#include "torchgen/info_matcher.h"
#include "torchgen/predict.h"

namespace dispatchctl::torchgen {

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
      out.push_back({op, "Autograd", "autograd", "VariableType.cpp", f.loc, true});
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
