#include "torchgen/out_grad_checks.h"

#include <set>

#include "torchgen/generated_calls.h"
#include "torchgen/info_matcher.h"
#include "torchgen/refusals_detail.h"  // uses_ident: load_derivatives' IDENT_REGEX, written once

namespace dispatchctl::torchgen {
namespace {

// load_derivatives: the names whose formula is `non_differentiable`.
std::set<std::string> non_differentiable_names(const DifferentiabilityInfo& info) {
  std::set<std::string> out;
  for (const auto& formula : info.formulas)
    if (formula.non_differentiable)
      for (const std::string& name : split_formula_names(formula.names)) out.insert(name);
  return out;
}

// uses_single_grad: a backward formula (not a forward `result` one) of the
// key names `grad`, so only the first candidate output is differentiable.
bool uses_single_grad(const DifferentiabilityInfo& info, const std::string& key) {
  for (const auto& formula : info.formulas)
    if (formula.key == key && !formula.names.starts_with("result") && uses_ident(formula.text, "grad"))
      return true;
  return false;
}

// emit_body's differentiable_inputs: non-out tensor-like arguments not named non_differentiable.
std::vector<std::string> differentiable_inputs(const FunctionSchema& f, const std::set<std::string>& non_diff) {
  std::vector<std::string> out;
  for (const auto& a : f.arguments)
    if (!is_out_argument(a) && is_tensor_like(a.type) && !non_diff.count(a.name)) out.push_back(a.name);
  return out;
}

// gen_differentiable_outputs: an out= function's return names are its out=
// arguments' (cpp.return_names); output_differentiability picks by position.
// nullopt where torchgen itself refuses the lengths.
std::optional<std::vector<std::string>> differentiable_outputs(const FunctionSchema& f, const DifferentiabilityInfo& info,
                                                               const std::string& key,
                                                               const std::set<std::string>& non_diff) {
  std::vector<const SchemaArgument*> outs;
  for (const auto& a : f.arguments)
    if (is_out_argument(a)) outs.push_back(&a);
  if (outs.size() != f.returns.size()) return std::nullopt;
  std::vector<std::string> out;
  if (info.output_differentiability) {
    const auto& written = info.output_differentiability->differentiable;
    if (written.size() != outs.size()) return std::nullopt;
    for (size_t i = 0; i < outs.size(); ++i)
      if (written[i]) out.push_back(outs[i]->name);
    return out;
  }
  for (size_t i = 0; i < outs.size(); ++i)
    if (is_tensor_like(f.returns[i].type) && !non_diff.count(outs[i]->name)) out.push_back(outs[i]->name);
  if (uses_single_grad(info, key) && out.size() > 1) out.resize(1);
  return out;
}

std::string joined(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ",") + n;
  return out;
}

}  // namespace

std::vector<OutGradCheckFact> out_grad_checks(const TorchgenModel& model, const ReleaseRules& rules) {
  std::vector<OutGradCheckFact> facts;
  if (!model.has_derivatives_yaml) return facts;
  const InfoMatcher matcher(model);
  for (const auto& f : model.functions) {
    if (schema_kind(f.func) != SchemaKind::Out || rules.manual_autograd.count(cpp_name(f.func))) continue;
    const DifferentiabilityInfo* info = matcher.find(f);
    if (!info) continue;
    // emit_body's `undifferentiable`: get_base_name (the base name) or cpp.name.
    if (rules.dont_require_derivative.count(base_name(f.func).base) ||
        rules.dont_require_derivative.count(cpp_name(f.func)))
      continue;
    const std::set<std::string> non_diff = non_differentiable_names(*info);
    const std::vector<std::string> inputs = differentiable_inputs(f.func, non_diff);
    if (inputs.empty()) continue;
    for (const auto& [key, has_formula] : info->keys) {
      const auto outputs = differentiable_outputs(f.func, *info, key, non_diff);
      if (!outputs || outputs->empty()) continue;
      facts.push_back({f.func.full_name(), key == "Default" ? "Autograd" : key, inputs, *outputs});
    }
  }
  return facts;
}

std::size_t record_out_grad_checks(Registry& registry, const TorchgenInputs& inputs) {
  if (!inputs.derivatives) return 0;
  const Catalogue& cat = registry.catalogue();
  const ReleaseRules* rules = rules_for_release(cat.version());
  if (!rules) return 0;
  ParseOptions parse{rules, &cat, {"CPU"}};
  TorchgenModel model = parse_torchgen_inputs(inputs, parse);
  add_generated_functions(model, *rules);
  registry.mark_out_grad_checks_known();
  std::size_t recorded = 0;
  for (const OutGradCheckFact& fact : out_grad_checks(model, *rules)) {
    const Operator* op = registry.find(fact.op);
    const auto key = cat.find(fact.key);
    if (!op || !key) continue;
    const std::string inputs_text = joined(fact.inputs), outputs_text = joined(fact.outputs);
    for (const std::uint32_t i : op->kernels_at(*key)) {
      const Kernel& kernel = op->registrations[i];
      if (generated_file_stem(kernel.debug) != "VariableType") continue;
      registry.record_out_grad_check(kernel, inputs_text, outputs_text);
      ++recorded;
    }
  }
  return recorded;
}

}  // namespace dispatchctl::torchgen
