#include "torchgen/out_grad_checks.h"

#include "torchgen/differentiability.h"
#include "torchgen/info_matcher.h"

namespace dispatchctl::torchgen {
namespace {

std::vector<std::string_view> views(const std::vector<std::string>& names) { return {names.begin(), names.end()}; }

}  // namespace

std::vector<OutGradCheckFact> out_grad_checks(const TorchgenModel& model, const ReleaseRules& rules) {
  std::vector<OutGradCheckFact> facts;
  if (!model.has_derivatives_yaml) return facts;
  const InfoMatcher matcher(model);
  for (const auto& f : model.functions) {
    if (schema_kind(f.func) != SchemaKind::Out || rules.manual_autograd.count(cpp_name(f.func))) continue;
    const DifferentiabilityInfo* info = matcher.find(f);
    if (!info) continue;
    for (const auto& [key, has_formula] : info->keys) {
      const auto d = differentiability(f.func, *info, key, rules);
      if (!d.requires_derivative()) continue;
      facts.push_back({f.func.full_name(), autograd_key(key), d.inputs, d.outputs});
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
    const std::vector<std::string_view> in_names = views(fact.inputs), out_names = views(fact.outputs);
    for (const std::uint32_t i : op->kernels_at(*key)) {
      const Kernel& kernel = op->registrations[i];
      if (kernel.source.generator != KernelGenerator::VariableType) continue;
      registry.record_out_grad_check(kernel, in_names, out_names);
      ++recorded;
    }
  }
  return recorded;
}

}  // namespace dispatchctl::torchgen
