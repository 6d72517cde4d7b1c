// tools/autograd: VariableType (use_derived + derivatives.yaml dispatch keys),
// ADInplaceOrViewType and TraceType (docs/torchgen-rules.md §3).
#include <algorithm>
#include <map>
#include <unordered_map>

#include "torchgen/differentiability.h"
#include "torchgen/info_matcher.h"
#include "torchgen/predict.h"

namespace dispatchctl::torchgen {
namespace {

// gen_variable_type_func: an operator without a differentiability info gets
// the boxed autograd-not-implemented kernel when it has a differentiable
// output and no name in the exempt lists; a _foreach_ op with a reference
// formula has an info (generated from it).
bool gets_not_implemented_kernel(const NativeFunction& f, const TorchgenModel& model, const ReleaseRules& rules) {
  if (!model.has_derivatives_yaml || !rules.autograd_not_implemented_known) return false;
  if (is_foreach(f) && has_foreach_reference(f, model, rules)) return false;
  const std::string cpp = cpp_name(f.func);
  const std::string wrapper = cpp + (f.func.overload_name.empty() ? "" : "_" + f.func.overload_name);
  const BaseOperatorName name = base_name(f.func);
  // get_base_name: "lshift" for __ilshift__, which DONT_REQUIRE_DERIVATIVE's
  // "__ilshift__" does not exempt (the real 1.13.1 and 2.14.1 builds register
  // the kernel for it).
  if (rules.dont_require_derivative.count(name.base)) return false;
  for (const std::string& exempt : {name.to_string(), cpp, wrapper})
    if (rules.autograd_not_implemented_exempt.count(exempt)) return false;
  return std::any_of(f.func.returns.begin(), f.func.returns.end(),
                     [](const SchemaArgument& r) { return is_tensor_like(r.type); });
}

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
      out.push_back({op, "Autograd", "autograd", "VariableType.cpp", f.loc, gets_not_implemented_kernel(f, model, rules)});
    } else {
      for (const auto& [key, formula] : info->keys) {
        const std::string at = autograd_key(key);
        out.push_back({op, at, at == "Autograd" ? "autograd" : "autograd-dispatch-key", "VariableType.cpp",
                       info->loc, false, true});
      }
    }
    const auto kind = schema_kind(f.func);
    const bool modifies = kind == SchemaKind::Inplace || kind == SchemaKind::Out;
    if (rules.view_functions.count(base_name(f.func).base) || (modifies && !f.func.returns.empty()))
      out.push_back({op, "ADInplaceOrView", "ad-inplace-or-view", "ADInplaceOrViewType.cpp", f.loc});
  }
}

Predictions predict(const TorchgenModel& model, const ReleaseRules& rules, const std::set<std::string>& compiled) {
  Predictions p;
  for (const auto& f : model.functions)
    p.operators.push_back({f.func.full_name(), dispatcher_text(f.func, rules.dimname_prints_as_str), f.loc, f.generated});
  const std::vector<SignatureGroup> groups = group_by_signature(model.functions);
  predict_backend_kernels(model, groups, rules, compiled, p.registrations);
  predict_functionalization(model, groups, rules, p.registrations);
  predict_autograd(model, rules, p.registrations);
  return p;
}

}  // namespace dispatchctl::torchgen
