#include "torchgen/differentiability.h"

#include <algorithm>

#include "torchgen/info_matcher.h"
#include "torchgen/refusals_detail.h"  // uses_ident, is_argument_name

namespace dispatchctl::torchgen {

KeyFormulas formulas_at(const DifferentiabilityInfo& info, const std::string& key) {
  KeyFormulas k;
  for (const auto& formula : info.formulas) {
    if (formula.key != key) continue;
    const std::vector<std::string> names = split_formula_names(formula.names);
    if (!is_argument_name(info.func, names.front())) {
      k.forward.push_back(&formula);
    } else if (formula.non_differentiable) {
      k.non_differentiable.insert(names.begin(), names.end());
    } else {
      k.backward.push_back(&formula);
      k.derived.insert(names.begin(), names.end());
    }
  }
  return k;
}

std::vector<std::string> return_names(const FunctionSchema& s) {
  std::vector<std::string> names;
  std::vector<const SchemaArgument*> outs;
  for (const auto& a : s.arguments)
    if (is_out_argument(a)) outs.push_back(&a);
  for (size_t i = 0; i < s.returns.size(); ++i) {
    const SchemaArgument& r = s.returns[i];
    if (base_name(s).inplace) {
      names.push_back("self");
    } else if (is_out_fn(s) && i < outs.size()) {
      names.push_back(outs[i]->name);
    } else if (!r.name.empty()) {
      const bool conflict = std::any_of(s.arguments.begin(), s.arguments.end(),
                                        [&](const SchemaArgument& a) { return a.name == r.name; });
      names.push_back(conflict ? r.name + "_return" : r.name);
    } else {
      names.push_back(s.returns.size() == 1 ? "result" : "result" + std::to_string(i));
    }
  }
  return names;
}

Differentiability differentiability(const FunctionSchema& f, const DifferentiabilityInfo& info,
                                                   const std::string& key, const ReleaseRules& rules) {
  const KeyFormulas k = formulas_at(info, key);
  Differentiability d;
  for (const auto& a : f.arguments)
    if (!is_out_argument(a) && is_tensor_like(a.type) && !k.non_differentiable.count(a.name)) d.inputs.push_back(a.name);
  const std::vector<std::string> names = return_names(f);
  if (const auto& od = info.output_differentiability) {
    // load_derivatives turns conditions into [True]: one output, refused for more.
    const std::vector<bool> written = od->conditions ? std::vector<bool>{true} : od->differentiable;
    d.lengths_refused = written.size() != names.size();
    for (size_t i = 0; i < names.size() && !d.lengths_refused; ++i)
      if (written[i]) d.outputs.push_back(names[i]);
  } else {
    for (size_t i = 0; i < names.size(); ++i)
      if (is_tensor_like(f.returns[i].type) && !k.non_differentiable.count(names[i])) d.outputs.push_back(names[i]);
    // uses_single_grad: a backward formula naming `grad` leaves only the first.
    const bool single_grad = std::any_of(k.backward.begin(), k.backward.end(),
                                         [](const auto* formula) { return uses_ident(formula->text, "grad"); });
    if (single_grad && d.outputs.size() > 1) d.outputs.resize(1);
  }
  d.exempt = rules.dont_require_derivative.count(base_name(f).base) || rules.dont_require_derivative.count(cpp_name(f));
  return d;
}

std::string autograd_key(const std::string& derivatives_key) {
  return derivatives_key == "Default" ? "Autograd" : derivatives_key;
}

}  // namespace dispatchctl::torchgen
