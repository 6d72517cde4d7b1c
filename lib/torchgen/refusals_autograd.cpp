// derivatives.yaml as tools/autograd reads it (torchgen/packaged/autograd):
//   load_derivatives.py create_differentiability_info: dispatch keys that are
//     no autograd key, output_differentiability conditions for several
//     outputs; set_up_derivatives: an input both non_differentiable and
//     derived; saved_variables: .sizes() / .size(N) / .strides();
//     create_derivative: grads[i] past the outputs;
//     postprocess_forward_derivatives: a forward formula naming an input by
//     its base name, auto_element_wise / auto_linear where they cannot apply;
//   gen_variable_type.py emit_body, for every operator that takes the
//     formula: "derivative ignored" (nothing differentiable), a formula keyed
//     by a non-Tensor input, forward formulas not covering the differentiable
//     outputs.
// Reported at the derivatives.yaml entry (or the formula's line), once per
// entry and kind: the functional, in-place and out= operators share a formula.
#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <string_view>

#include "torchgen/differentiability.h"
#include "torchgen/info_matcher.h"
#include "torchgen/refusals_detail.h"
#include "util/join.h"

namespace dispatchctl::torchgen {
namespace {


// load_derivatives' r"(\.|->)size\(-?\d+\)": `.size(0)`, `->size(-1)`.
bool calls_size_int(std::string_view formula) {
  for (size_t at = formula.find("size("); at != std::string_view::npos; at = formula.find("size(", at + 1)) {
    const bool member = (at >= 1 && formula[at - 1] == '.') || (at >= 2 && formula.substr(at - 2, 2) == "->");
    size_t i = at + 5;
    if (i < formula.size() && formula[i] == '-') ++i;
    const size_t digits = i;
    while (i < formula.size() && std::isdigit(static_cast<unsigned char>(formula[i]))) ++i;
    if (member && i > digits && i < formula.size() && formula[i] == ')') return true;
  }
  return false;
}

// saved_variables' r"{name}.sym_strides\(\)" (no boundary before the name,
// any one character after it): which argument's strides a formula reads.
bool reads_strides_of(std::string_view formula, std::string_view name) {
  constexpr std::string_view call = "sym_strides()";
  for (size_t at = formula.find(call); at != std::string_view::npos; at = formula.find(call, at + 1))
    if (at >= name.size() + 1 && formula.substr(at - 1 - name.size(), name.size()) == name) return true;
  return false;
}

bool is_tensor_list(const SchemaType& t) { return t.kind == SchemaType::Kind::List && is_tensor_like(t); }

bool is_autograd_key(const std::string& key) {
  static const std::set<std::string> not_per_backend = {"Autograd", "AutogradOther", "AutogradFunctionality",
                                                        "AutogradNonFunctional"};
  return key == "Default" || (key.starts_with("Autograd") && !not_per_backend.count(key));
}

class EntryChecks {
 public:
  EntryChecks(const DifferentiabilityInfo& info, std::vector<Refusal>& out) : info_(info), out_(out) {}

  void refuse(int line, std::string_view id, std::string reason) {
    if (!reported_.insert(std::string(id)).second) return;
    out_.push_back(Refusal{{info_.loc.file, line ? line : info_.loc.line}, info_.func.full_name(), std::string(id),
                           std::move(reason), std::string(kind_fix(id))});
  }

  // load_derivatives.py, on the entry itself.
  void check_loading() {
    const std::string name = op_name(info_.func);
    const auto& od = info_.output_differentiability;
    if (od && od->conditions && od->length != 1)
      refuse(od->line, "output-differentiability-conditions",
             "Not supported: for " + torchgen_text(info_.func) + ", output_differentiability must either be "
             "list[bool] or a list[str] where each str is a condition. In the case where it is a condition, we only "
             "support single-output functions");
    for (const char* reserved : {"grad_input_mask", "result"})
      if (std::any_of(info_.func.arguments.begin(), info_.func.arguments.end(),
                      [&](const SchemaArgument& a) { return a.name == reserved; }))
        refuse(0, "reserved-argument-name",
               "Schema for " + name + " has an argument named " + reserved + ", but " +
                   (std::string(reserved) == "result" ? "this is only allowed for outputs."
                                                      : "this name would be shadowed by our codegen.") +
                   " Please use a different name in native_functions.yaml.");
    for (const auto& [key, has_formula] : info_.keys) {
      if (!is_autograd_key(key))
        refuse(0, "derivative-dispatch-key",
               "Invalid dispatch key " + key + " in derivatives.yaml for " + torchgen_text(info_.func) +
                   ", expected key to be one of Default, AutogradNestedTensor, AutogradCPU, AutogradCUDA, …");
      check_key(formulas_at(info_, key));
    }
  }

 private:
  void check_key(const KeyFormulas& k) {
    const std::string name = op_name(info_.func);
    std::vector<std::string> overlap;
    for (const auto& n : k.derived)
      if (k.non_differentiable.count(n)) overlap.push_back(n);
    if (!overlap.empty())
      refuse(0, "derivative-non-differentiable-overlap",
             "derivatives definition for " + name + " have overlapped non_differentiable and differentiable "
             "variables: " + join(overlap));
    for (const auto* formula : k.backward) {
      const std::string& t = formula->text;
      if (t.find(".sizes()") != std::string::npos || t.find("->sizes()") != std::string::npos)
        refuse(formula->line, "derivative-size-api",
               ".sizes() is not supported in derivative formulas. Instead, please use the SymInt version, "
               ".sym_sizes(). formula=" + t);
      else if (calls_size_int(t))
        refuse(formula->line, "derivative-size-api",
               ".size(int) is not supported in derivative formulas. Instead, please use the SymInt version, "
               ".sym_size(int). formula=" + t);
      else if (t.find(".strides()") != std::string::npos || t.find("->strides()") != std::string::npos)
        refuse(formula->line, "derivative-size-api",
               ".strides() is not supported in derivative formulas. Instead, please use the SymInt version, "
               ".sym_strides(). formula=" + t);
      // stride_expr: strides are saved only for the derivative of the tensor they are read from.
      const std::vector<std::string> names = split_formula_names(formula->names);
      for (const auto& a : info_.func.arguments)
        if (reads_strides_of(t, a.name) && names != std::vector<std::string>{a.name})
          refuse(formula->line, "derivative-strides-other",
                 "Replacement for \".strides()\" is currently only supported for single derivatives of the same "
                 "tensor that \".strides()\" is being called on: the formula for " + formula->names + " reads " +
                     a.name + ".sym_strides()");
      // create_derivative saves the outputs through saved_variables too (an in-place
      // operator's `self` output as `result`): no formula is an output's own, so an
      // output's strides are refused in any backward formula.
      for (std::string output : return_names(info_.func)) {
        if (output == "self") output = "result";
        if (reads_strides_of(t, output))
          refuse(formula->line, "derivative-strides-other",
                 "Replacement for \".strides()\" is currently only supported for single derivatives of the same "
                 "tensor that \".strides()\" is being called on: the formula for " + formula->names +
                     " reads the output's " + output + ".sym_strides()");
      }
      for (size_t i : grads_indices(t))
        if (i >= info_.func.returns.size())
          refuse(formula->line, "grads-out-of-bounds",
                 "Out of bounds grads access: derivative formula for " + name + " used grads[" + std::to_string(i) +
                     "], but the forward only returns " + std::to_string(info_.func.returns.size()) + " outputs.");
    }
    std::vector<const SchemaArgument*> with_derivatives;
    for (const auto& a : info_.func.arguments)
      if (k.derived.count(a.name)) with_derivatives.push_back(&a);
    const bool foreach = unqualified_name(info_.func).starts_with("_foreach_");
    for (const auto* formula : k.forward) {
      for (const SchemaArgument* a : with_derivatives)
        if ((!is_tensor_list(a->type) || foreach) && uses_ident(formula->text, a->name))
          refuse(formula->line, "forward-formula-base-name",
                 "The forward formula for " + name + " is using the base name of the " + a->name +
                     " argument which is ambiguous. You should use " + a->name + "_p to access the primal value "
                     "and " + a->name + "_t to access the tangent.");
      const bool single = k.forward.size() == 1 && split_formula_names(k.forward[0]->names).size() == 1;
      if (formula->text == "auto_element_wise" &&
          (schema_kind(info_.func) == SchemaKind::Inplace || with_derivatives.size() != 1 || !single ||
           k.backward.size() != 1))
        refuse(formula->line, "auto-forward-formula",
               "Derivative definition of " + name + " in derivatives.yaml defines the forward definition of gradient "
               "as element_wise but this only works for functions with a single differentiable input and a single "
               "differentiable output (and its backward formula)");
      // gen_variable_type emit_body: a written forward formula must read an input's
      // tangent (only a lone TensorList input, as stack's, may go without).
      const bool automatic = formula->text == "auto_element_wise" || formula->text == "auto_linear";
      const bool reads_tangent = std::any_of(with_derivatives.begin(), with_derivatives.end(), [&](const auto* a) {
        return (!is_tensor_list(a->type) || foreach) && uses_ident(formula->text, a->name + "_t");
      });
      // Its differentiable_inputs are every tensor not marked non_differentiable,
      // with a backward formula or not (only those with one count as read).
      std::vector<const SchemaArgument*> differentiable;
      for (const auto& a : info_.func.arguments)
        if (a.type.tensor_like() && !k.non_differentiable.count(a.name)) differentiable.push_back(&a);
      const bool lone_list = differentiable.size() == 1 && is_tensor_list(differentiable[0]->type);
      if (!automatic && !differentiable.empty() && !reads_tangent && !lone_list)
        refuse(formula->line, "forward-formula-no-tangent",
               "No differentiable input to \"" + name + "\" is a differentiable Tensor (as the provided forward AD "
               "formula does not use any input tangent) even though a forward gradient formula has been defined "
               "for it. This case should only happen for function that take a single TensorList as input.");
      if (formula->text == "auto_linear" && !single)
        refuse(formula->line, "auto-forward-formula",
               "Derivative definition of " + name + " in derivatives.yaml defines the forward definition of gradient "
               "as linear but this only works for functions with a single differentiable output.");
    }
  }

  const DifferentiabilityInfo& info_;
  std::vector<Refusal>& out_;
  std::set<std::string> reported_;
};

// emit_body for one operator taking `info`'s formulas at `key`.
void check_operator(const NativeFunction& f, const DifferentiabilityInfo& info, const std::string& key,
                    const ReleaseRules& rules, EntryChecks& checks) {
  const KeyFormulas k = formulas_at(info, key);
  std::set<std::string> backward_names;
  for (const auto* formula : k.backward)
    for (const auto& n : split_formula_names(formula->names)) backward_names.insert(n);
  const bool has_derivatives = std::any_of(info.func.arguments.begin(), info.func.arguments.end(),
                                           [&](const SchemaArgument& a) { return k.derived.count(a.name) != 0; });
  if (!has_derivatives && !f.is_abstract_for_autograd()) return;  // use_derived: no VariableType kernel
  const Differentiability d = differentiability(f.func, info, key, rules);
  if (has_derivatives) {
    std::vector<std::string> missing;
    for (const auto& n : backward_names)
      if (std::find(d.inputs.begin(), d.inputs.end(), n) == d.inputs.end()) missing.push_back(n);
    if (!missing.empty())
      checks.refuse(0, "derivative-non-tensor-input",
                    "Missing arguments for derivatives: " + join(missing) + " in " + op_name(info.func) +
                        " (not a differentiable Tensor input of " + f.name() + ")");
  }
  if (d.lengths_refused) return;  // output-differentiability-length
  // gen_differentiable_outputs refuses a False for an in-place operator before
  // emit_body looks for a differentiable output (output-differentiability-inplace).
  if (info.output_differentiability && info.output_differentiability->any_false &&
      schema_kind(f.func) == SchemaKind::Inplace)
    return;
  const size_t outputs = d.outputs.size();
  const bool requires_derivative = d.requires_derivative();
  if (has_derivatives && !requires_derivative && !f.func.returns.empty())
    checks.refuse(0, "derivative-ignored",
                  "ERROR: derivative ignored for " + cpp_name(f.func) + " -- specified an autograd function without "
                  "derivative (" + (d.exempt ? "it is in DONT_REQUIRE_DERIVATIVE"
                                             : d.inputs.empty() ? "no differentiable input" : "no differentiable output") +
                      ")");
  if (!requires_derivative || k.forward.empty()) return;
  size_t forward_names = 0;
  bool several_results = false;  // create_forward_derivative refuses it first (check_forward_names)
  for (const auto* formula : k.forward)
    for (const auto& n : split_formula_names(formula->names)) {
      ++forward_names;
      several_results = several_results || (n == "result" && info.func.returns.size() != 1 &&
                                             std::none_of(info.func.returns.begin(), info.func.returns.end(),
                                                          [](const SchemaArgument& r) { return r.name == "result"; }));
    }
  if (several_results) return;
  if (forward_names != outputs)
    checks.refuse(k.forward.front()->line, "forward-formula-count",
                  "Expected the number of forward derivatives implemented (" + std::to_string(forward_names) +
                      ") to match the number of differentiable outputs (" + std::to_string(outputs) + ") of " +
                      f.name());
}

// match_differentiability_info, for an in-place operator: the self formula it
// takes may not save self's strides (strides_or_error), and its own entry's
// forward formula may not read self_p, the value the operator overwrites.
void check_inplace(const NativeFunction& f, const DifferentiabilityInfo& info, EntryChecks& checks) {
  const bool own = torchgen_text(info.func) == torchgen_text(f.func);
  for (const auto& formula : info.formulas) {
    if (formula.non_differentiable) continue;
    const std::vector<std::string> names = split_formula_names(formula.names);
    if (names == std::vector<std::string>{"self"} && reads_strides_of(formula.text, "self"))
      checks.refuse(formula.line, "strides-in-inplace-formula",
                    "Calling '.strides()' in the 'self' derivative formula of an in-place function is not "
                    "supported: " + torchgen_text(f.func) + " takes the formula of " + op_name(info.func));
    const bool forward = !is_argument_name(info.func, names.front());
    if (own && forward && uses_ident(formula.text, "self_p"))
      checks.refuse(formula.line, "forward-formula-inplace-self",
                    "The formula for \"" + op_name(f.func) + "\" is using the original value of self that is being "
                    "modified inplace. This would lead to wrong forward gradients. Please use \"result\" in the "
                    "formula only.");
  }
}

// gen_foreach_derivativeinfo: a _foreach_ operator without a formula of its
// own takes its reference operator's output_differentiability, which must fit
// its own outputs (an in-place _foreach_ operator has none).
void check_foreach_outputs(const NativeFunction& f, const TorchgenModel& model, const ReleaseRules& rules,
                           std::map<const DifferentiabilityInfo*, EntryChecks>& checks) {
  const DifferentiabilityInfo* ref = foreach_reference(f, model, rules);
  if (!ref || !ref->output_differentiability || ref->output_differentiability->conditions) return;
  const auto& od = *ref->output_differentiability;
  if (od.length != f.func.returns.size() && od.length == ref->func.returns.size())
    checks.at(ref).refuse(od.line, "output-differentiability-length",
                          "The length of output_differentiability (" + std::to_string(od.length) +
                              "), does not match the number of outputs (" + std::to_string(f.func.returns.size()) +
                              ") of " + f.name() + ", which takes the formula of " + op_name(ref->func));
}

}  // namespace

bool is_argument_name(const FunctionSchema& s, const std::string& name) {
  if (name == "options" && has_tensor_options(s)) return true;
  return std::any_of(s.arguments.begin(), s.arguments.end(), [&](const SchemaArgument& a) { return a.name == name; });
}

void check_autograd(const TorchgenModel& model, const ReleaseRules& rules, const InfoMatcher& matcher,
                    std::vector<Refusal>& out) {
  if (!model.has_derivatives_yaml) return;
  std::map<const DifferentiabilityInfo*, EntryChecks> checks;
  for (const auto& info : model.derivatives) checks.emplace(&info, EntryChecks(info, out)).first->second.check_loading();
  for (const auto& f : model.functions) {
    if (rules.foreach_inplace_needs_derivatives && is_foreach(f) && !matcher.find(f))
      check_foreach_outputs(f, model, rules, checks);
    if (is_foreach(f) || rules.manual_autograd.count(cpp_name(f.func))) continue;
    const DifferentiabilityInfo* info = matcher.find(f);
    if (!info) continue;
    for (const auto& [key, has_formula] : info->keys) check_operator(f, *info, key, rules, checks.at(info));
    if (schema_kind(f.func) == SchemaKind::Inplace) check_inplace(f, *info, checks.at(info));
  }
}

}  // namespace dispatchctl::torchgen
