// More of what torchgen 2.14.1's autograd side refuses, found reading
// tools/autograd (torchgen/packaged/autograd) assert by assert (the fifth
// corpus, tests/torchgen_corpus/edits-fifth.json):
//   load_derivatives.py set_up_derivatives: a formula keyed by a name that is
//     both an input and a named return of the operator; create_forward_derivative:
//     `result` for several outputs, `resultN` past the last; postprocess_forward_derivatives:
//     auto_linear without a differentiable input;
//   model.py view_schema_kind (gen.py get_grouped_by_view_native_functions,
//     which torchgen.gen and load_derivatives both call): an in-place named
//     operator that is a view (a non-mutable aliased return, a wildcard
//     argument) without the inplace_view tag;
//   gen_view_funcs.py returns_multi_tensor (and gen_variable_type.py
//     check_tensorimpl_and_storage before it for VIEW_FUNCTIONS' own names):
//     an operator named like a view function that does not return one value;
//   gen_autograd_functions.py process_function: a backward formula reading
//     what its Node cannot keep (a float[] argument, a Tensor[] output);
//   api/autograd.py gen_foreach_derivativeinfo: an out-of-place _foreach_
//     operator with a lone Tensor argument whose reference operator has a
//     forward formula, or whose reference's backward formula saves an output
//     other than `result` (its `raise RuntimeError("")`);
//   gen_variable_type.py emit_save_inputs guard_for: a multi-input formula's
//     `wrap_opt_if(X` not followed by `,`; emit_fw_derivatives: a forward
//     formula for an output that is neither a Tensor nor one Tensor[] (a
//     `Tensor?` return) (the seventh corpus); emit_body: an in-place _foreach_
//     operator's own derivatives.yaml entry, whose list arguments it compares
//     with their own element types (the tenth corpus).
#include <algorithm>
#include <regex>
#include <set>

#include "torchgen/differentiability.h"
#include "torchgen/info_matcher.h"
#include "torchgen/refusals_detail.h"

namespace dispatchctl::torchgen {
namespace {

Refusal at_formula(const DifferentiabilityInfo& info, int line, std::string_view id, std::string reason) {
  return Refusal{{info.loc.file, line ? line : info.loc.line}, info.func.full_name(), std::string(id),
                 std::move(reason), std::string(kind_fix(id))};
}

// set_up_derivatives: `name in all_arg_names and name in all_ret_names`, for
// every name of every formula key, non_differentiable ones included.
void check_input_named_as_return(const DifferentiabilityInfo& info, std::vector<Refusal>& out) {
  std::set<std::string> returns;
  for (const auto& r : info.func.returns)
    if (!r.name.empty()) returns.insert(r.name);
  if (returns.empty()) return;
  for (const auto& [key, line] : info.formula_keys)
    for (const auto& name : split_formula_names(key))
      if (returns.count(name) && is_argument_name(info.func, name)) {
        out.push_back(at_formula(info, line, "formula-input-named-as-return",
                                 "While processing the derivative formula for '" + op_name(info.func) + "' wrt '" +
                                     name + "', expected '" + name + "' to not be both an input arg and named return."));
        return;  // torchgen stops at the first
      }
}

// NativeFunction.view_schema_kind: an in-place name and a view schema need the tag.
void check_inplace_view_tag(const NativeFunction& f, const ReleaseRules& rules, std::vector<Refusal>& out) {
  if (f.generated || !base_name(f.func).inplace || f.tags.count("inplace_view") ||
      !f.is_view_op(rules.inplace_view_not_views))
    return;
  out.push_back(make_refusal(f, "inplace-view-without-tag",
                             "inplace_view tag missing for " + f.name() + " (an in-place name and a view schema: a "
                             "return aliasing an input without `!`, or an argument aliased into `*`)"));
}

// gen_view_funcs: every operator with a view function's name (VIEW_FUNCTIONS,
// RETURNS_VIEWS_OF_INPUT) that writes no argument and has a VariableType
// kernel (use_derived) gets a ViewFunc, which needs exactly one return. For
// VIEW_FUNCTIONS' own names gen_variable_type refuses a second Tensor return
// earlier, in the same entry.
void check_view_function_returns(const NativeFunction& f, const ReleaseRules& rules, const InfoMatcher& matcher,
                                 const std::vector<Refusal>& found, std::vector<Refusal>& out) {
  if (f.generated || f.func.returns.size() == 1 || !rules.view_functions.count(base_name(f.func).base) ||
      rules.manual_autograd.count(cpp_name(f.func)) ||
      std::any_of(f.func.arguments.begin(), f.func.arguments.end(), [](const auto& a) { return a.is_write(); }))
    return;
  const DifferentiabilityInfo* info = matcher.find(f);
  if (!f.is_abstract_for_autograd() && !(info && info->has_derivatives())) return;  // no VariableType kernel
  const std::string name = f.func.full_name();
  if (std::any_of(found.begin(), found.end(), [&](const Refusal& r) { return r.op == name && r.id == "view-outputs"; }))
    return;  // one finding: the view replay's comes first
  out.push_back(make_refusal(f, "view-function-returns",
                             "Expected 1 return, got " + std::to_string(f.func.returns.size()) + " (" + f.name() +
                                 " has the name of the view function " + base_name(f.func).base +
                                 ", whose ViewFunc replays one output)"));
}

// gen_foreach_derivativeinfo's reference for an out-of-place _foreach_
// operator: the first functional derivatives.yaml entry with a Default formula
// whose operator it is the list form of, with as many non-out arguments unless
// the release skips that check for it (nullptr: none). info_matcher.h's
// foreach_reference also takes in-place references, without the count.
const DifferentiabilityInfo* functional_foreach_reference(const NativeFunction& f, const TorchgenModel& model,
                                                          const ReleaseRules& rules) {
  auto non_out = [](const FunctionSchema& s) {
    return std::count_if(s.arguments.begin(), s.arguments.end(), [](const auto& a) { return !is_out_argument(a); });
  };
  for (const auto& ref : model.derivatives) {
    if (schema_kind(ref.func) != SchemaKind::Functional || !ref.keys.count("Default") ||
        !is_reference_for_foreach(f.func, ref.func, false))
      continue;
    if (!rules.foreach_skip_argument_len_check.count(f.name()) && non_out(f.func) != non_out(ref.func)) continue;
    return &ref;
  }
  return nullptr;
}

// gen_foreach_derivativeinfo, for an out-of-place _foreach_ operator without
// an entry of its own: its reference's forward formulas are rewritten per
// argument, and a lone Tensor argument is allowed only for a few overloads.
void check_foreach_tensor_argument(const NativeFunction& f, const TorchgenModel& model, const ReleaseRules& rules,
                                   const InfoMatcher& matcher, std::vector<Refusal>& out) {
  if (rules.foreach_with_tensor_overload.empty() || f.generated || !is_foreach(f) ||
      schema_kind(f.func) != SchemaKind::Functional || matcher.find(f) ||
      rules.foreach_with_tensor_overload.count(f.name()))
    return;
  const SchemaArgument* lone = nullptr;
  for (const auto& a : f.func.arguments)
    if (!is_out_argument(a) && is_tensor_like(a.type) && a.type.kind != SchemaType::Kind::List) lone = lone ? lone : &a;
  if (!lone) return;
  const DifferentiabilityInfo* ref = functional_foreach_reference(f, model, rules);
  if (!ref || formulas_at(*ref, "Default").forward.empty()) return;  // nothing to rewrite
  out.push_back(make_refusal(f, "foreach-tensor-argument",
                             f.name() + ", " + type_text(*lone) + " (its argument " + lone->name + " is one Tensor, "
                             "and the forward formula of its reference " + op_name(ref->func) + " is rewritten for "
                             "lists)"));
}

// saved_variables: the name a backward formula saves output `name` under,
// or "": its REPLACEMENTS first (`name.sym_sizes()` is saved as
// name_sym_sizes, …), then the name itself where it is still read.
std::string saved_output_name(const std::string& formula, const std::string& name) {
  static const std::vector<std::pair<std::string, std::string>> members = {
      {".sym_sizes()", "_sym_sizes"}, {"->sym_sizes()", "_sym_sizes_opt"}, {".sym_blocksize()", "_self_sym_blocksize_opt"},
      {".options()", "_options"}, {".sym_size(", "_sym_argsize"}, {".numel()", "_numel"}, {".sym_numel()", "_sym_numel"},
      {".scalar_type()", "_scalar_type"}, {".dim()", "_dim"}, {".sym_strides()", "_sym_strides"},
      {".layout()", "_layout"}, {".is_conj()", "_conjugate"}};
  static const std::vector<std::pair<std::string, std::string>> calls = {
      {"zeros_like", "_info"}, {"to_args_sizes", "_args_sizes"}, {"to_args_sizes_symint", "_args_sizes_symint"},
      {"to_args_scalartypes", "_args_scalartypes"}, {"TensorGeometry", "_geometry"}};
  for (const auto& [member, suffix] : members)
    if (formula.find(name + member) != std::string::npos) return name + suffix;
  for (const auto& [call, suffix] : calls)
    if (formula.find(call + "(" + name + ")") != std::string::npos) return name + suffix;
  return uses_ident(formula, name) ? name : std::string();
}

// gen_foreach_derivativeinfo, for an out-of-place _foreach_ operator without
// an entry of its own: its reference's backward formulas may save only
// `result` (rewritten as the Tensor[] of results); any other saved output (a
// named return, result0, result.sym_sizes() saved as result_sym_sizes) is
// `raise RuntimeError("")`, before the forward formulas are rewritten.
void check_foreach_saved_outputs(const NativeFunction& f, const TorchgenModel& model, const ReleaseRules& rules,
                                 const InfoMatcher& matcher, std::vector<Refusal>& out) {
  const SchemaKind kind = schema_kind(f.func);
  // Releases without gen_foreach_derivativeinfo (1.13) give a _foreach_ operator no reference's formula.
  if (!rules.foreach_inplace_needs_derivatives || !is_foreach(f) || kind == SchemaKind::Inplace ||
      (f.generated && kind == SchemaKind::Out) || matcher.find(f))
    return;
  const DifferentiabilityInfo* ref = functional_foreach_reference(f, model, rules);
  if (!ref) return;
  for (const auto* formula : formulas_at(*ref, "Default").backward)
    for (const auto& name : return_names(ref->func)) {
      const std::string saved = saved_output_name(formula->text, name);
      if (saved.empty() || saved == "result") continue;
      out.push_back(make_refusal(f, "foreach-reference-saved-output",
                                 "RuntimeError() for " + f.name() + ": the backward formula of its reference " +
                                     op_name(ref->func) + " for " + formula->names + " saves the output as " + saved +
                                     " (a _foreach_ operator's formula can save only `result`)"));
      return;
    }
}

// create_forward_derivative: an unnamed output is `result` (one output) or
// `resultN` (several); postprocess_forward_derivatives: auto_linear calls the
// operator again on the tangents of the inputs that have a formula.
void check_forward_names(const DifferentiabilityInfo& info, std::vector<Refusal>& out) {
  const size_t returns = info.func.returns.size();
  for (const auto* formula : formulas_at(info, "Default").forward) {
    for (const auto& name : split_formula_names(formula->names)) {
      const bool named = std::any_of(info.func.returns.begin(), info.func.returns.end(),
                                     [&](const SchemaArgument& r) { return r.name == name; });
      if (named) continue;
      if (name == "result" && returns != 1) {
        out.push_back(at_formula(info, formula->line, "derivative-unknown-name",
                                 "Expected 1 return for 'result', got " + std::to_string(returns) + " (" +
                                     op_name(info.func) + ": name the output, or use result0, result1, ...)"));
        return;
      }
      if (name.size() > 6 && name.starts_with("result") &&
          std::all_of(name.begin() + 6, name.end(), [](char c) { return c >= '0' && c <= '9'; }) &&
          std::stoul(name.substr(6)) >= returns) {
        out.push_back(at_formula(info, formula->line, "derivative-unknown-name",
                                 "tuple index out of range: " + name + " names no output of " + op_name(info.func) +
                                     ", which returns " + std::to_string(returns)));
        return;
      }
    }
  }
  const KeyFormulas k = formulas_at(info, "Default");
  for (const auto* formula : k.forward)
    if (formula->text == "auto_linear" && k.derived.empty()) {
      out.push_back(at_formula(info, formula->line, "auto-forward-formula",
                               "Expected at least one differentiable argument: " + op_name(info.func) +
                                   "'s forward formula is auto_linear, and no input has a (backward) formula"));
      return;
    }
}

// process_function's saved variables: each input or output a backward
// formula names is kept in the Node; a reference type (c10::ArrayRef<double>
// of float[], c10::ArrayRef<c10::string_view> of str[]) may not be, nor a
// Tensor[] output outside _foreach_ operators.
void check_saved_types(const DifferentiabilityInfo& info, std::vector<Refusal>& out) {
  static const std::set<std::string> kept_elements = {"Tensor", "int", "SymInt", "Scalar", "bool"};
  const bool foreach = unqualified_name(info.func).starts_with("_foreach_");
  const std::vector<std::string> outputs = return_names(info.func);
  for (const auto* formula : formulas_at(info, "Default").backward) {
    for (const auto& a : info.func.arguments) {
      const SchemaType& t = a.type;
      const bool list = t.kind == SchemaType::Kind::List && t.contained[0].kind == SchemaType::Kind::Named;
      if (list && !kept_elements.count(t.contained[0].name) && uses_ident(formula->text, a.name)) {
        out.push_back(at_formula(info, formula->line, "formula-saves-reference",
                                 "c10::ArrayRef<...> looks like it contains a non-owning reference: the formula for " +
                                     formula->names + " reads " + a.name + " (" + type_text(a) + ")"));
        return;
      }
    }
    for (size_t i = 0; i < info.func.returns.size() && !foreach; ++i) {
      const SchemaArgument& r = info.func.returns[i];
      const bool tensor_list = r.type.kind == SchemaType::Kind::List && is_tensor_like(r.type);
      if (tensor_list && i < outputs.size() && uses_ident(formula->text, outputs[i] == "self" ? "result" : outputs[i])) {
        out.push_back(at_formula(info, formula->line, "formula-saves-reference",
                                 "VectorCType(BaseCType(tensorT)) requires foreach function and is_output: the formula "
                                 "for " + formula->names + " reads the Tensor[] output " + outputs[i]));
        return;
      }
    }
  }
}

// guard_for: a Tensor input only one backward formula reads, a formula for
// several inputs, is saved only when `wrap_opt_if(X, CONDITION)` says so; it
// finds "wrap_opt_if(X" and then reads the condition with
// re.match(r"wrap_opt_if\(X,(.*?)\)"), so `wrap_opt_if(X , c)` is refused
// (`wrap_opt_if( X, c)` is not found at all: the input is saved unguarded).
void check_wrap_opt_if(const DifferentiabilityInfo& info, std::vector<Refusal>& out) {
  if (unqualified_name(info.func).find("backward") != std::string_view::npos) return;
  const auto backward = formulas_at(info, "Default").backward;
  std::set<std::string> with_formula;
  for (const auto* formula : backward)
    for (const auto& name : split_formula_names(formula->names)) with_formula.insert(name);
  if (with_formula.size() <= 1) return;
  for (const auto& a : info.func.arguments)  // an input with a formula is a TensorList: no guards
    if (with_formula.count(a.name) && a.type.kind == SchemaType::Kind::List && is_tensor_like(a.type)) return;
  for (const auto& a : info.func.arguments) {
    if (a.type.kind != SchemaType::Kind::Named || a.type.name != "Tensor") continue;
    std::vector<const DifferentiabilityInfo::Formula*> used_in;
    for (const auto* formula : backward)
      if (uses_ident(formula->text, a.name)) used_in.push_back(formula);
    if (used_in.size() != 1 || split_formula_names(used_in[0]->names).size() == 1) continue;
    const std::string& text = used_in[0]->text;
    const size_t start = text.find("wrap_opt_if(" + a.name);
    if (start == std::string::npos) continue;
    const std::regex condition("wrap_opt_if\\(" + a.name + ",(.*?)\\)");
    if (std::regex_search(text.begin() + static_cast<long>(start), text.end(), condition,
                          std::regex_constants::match_continuous))
      continue;
    out.push_back(at_formula(info, used_in[0]->line, "wrap-opt-if-syntax",
                             "wrap_opt_if_match is None for " + a.name + " in the formula for " + used_in[0]->names +
                                 " (`wrap_opt_if(" + a.name + ",` must follow, with no space before the comma)"));
    return;
  }
}

// create_forward_derivative's var_types (the returns the formula names:
// by name, `result`, `resultN`), then emit_fw_derivatives: all plain Tensors,
// or one Tensor list; anything else is "Unsupported output type".
void check_forward_output_types(const DifferentiabilityInfo& info, std::vector<Refusal>& out) {
  const auto& returns = info.func.returns;
  for (const auto* formula : formulas_at(info, "Default").forward) {
    std::vector<const SchemaArgument*> types;
    const std::vector<std::string> names = split_formula_names(formula->names);
    for (const auto& r : returns)
      if (!r.name.empty() && std::find(names.begin(), names.end(), r.name) != names.end()) types.push_back(&r);
    if (types.empty() && names == std::vector<std::string>{"result"} && !returns.empty()) types.push_back(&returns[0]);
    else if (types.empty())
      for (const auto& name : names)  // ^result(\d+)$ (check_forward_names refuses one past the last)
        if (name.size() > 6 && name.starts_with("result") && name.find_first_not_of("0123456789", 6) == std::string::npos &&
            std::stoul(name.substr(6)) < returns.size())
          types.push_back(&returns[std::stoul(name.substr(6))]);
    if (types.empty()) continue;
    const auto plain = [](const SchemaArgument* r) {
      return r->type.kind == SchemaType::Kind::Named && r->type.name == "Tensor";
    };
    const bool list = types[0]->type.kind == SchemaType::Kind::List && is_tensor_like(types[0]->type);
    if (std::all_of(types.begin(), types.end(), plain) || (list && types.size() == 1)) continue;
    out.push_back(at_formula(info, formula->line, "forward-formula-output-type",
                             list ? "Expected number of outputs to be 1 if function returns ListType, got " +
                                        std::to_string(types.size()) + " (the forward formula for " + formula->names + ")"
                                  : "Unsupported output type for forward derivative: " + formula->names + " of " +
                                        op_name(info.func) + " is " +
                                        type_text(**std::find_if_not(types.begin(), types.end(), plain))));
    return;
  }
}

// gen_variable_type.py emit_body, for an in-place _foreach_ operator with a
// derivatives.yaml entry of its own (find_info's exact match: the only way
// one gets an info not derived from its reference operator's): each argument's
// element type must equal its reference argument's type, and the entry's own
// `Tensor(a!)[] self` is a list, not an element. Releases whose emit_body
// derives no in-place _foreach_ formulas (1.13) have no such comparison.
void check_foreach_inplace_entry(const DifferentiabilityInfo& info, const ReleaseRules& rules,
                                 std::vector<Refusal>& out) {
  if (!rules.foreach_inplace_needs_derivatives || !unqualified_name(info.func).starts_with("_foreach_") ||
      schema_kind(info.func) != SchemaKind::Inplace)
    return;
  for (const auto& a : info.func.arguments) {
    if ((a.kwarg_only && a.is_write()) || a.type.kind != SchemaType::Kind::List) continue;
    out.push_back(at_formula(info, 0, "foreach-inplace-formula",
                             "foreach_arg_type (" + type_text(a.type.contained.front()) + ") != ref_arg.type (" +
                                 type_text(a.type) +
                                 "): " + op_name(info.func) + " is an in-place _foreach_ operator with a "
                                 "derivatives.yaml entry of its own, which gen_variable_type compares with itself "
                                 "element by element (argument " + a.name + ")"));
    return;
  }
}

}  // namespace

void check_inplace_views(const TorchgenModel& model, const ReleaseRules& rules, std::vector<Refusal>& out) {
  for (const auto& f : model.functions) check_inplace_view_tag(f, rules, out);
}

void check_autograd_more(const TorchgenModel& model, const ReleaseRules& rules, const InfoMatcher& matcher,
                         std::vector<Refusal>& out) {
  if (!model.has_derivatives_yaml) return;
  for (const auto& info : model.derivatives) {
    check_input_named_as_return(info, out);
    check_forward_names(info, out);
    check_saved_types(info, out);
    check_wrap_opt_if(info, out);
    check_forward_output_types(info, out);
    check_foreach_inplace_entry(info, rules, out);
  }
  const std::vector<Refusal> found = out;
  for (const auto& f : model.functions) {
    check_view_function_returns(f, rules, matcher, found, out);
    const size_t before = out.size();
    check_foreach_saved_outputs(f, model, rules, matcher, out);
    if (out.size() == before) check_foreach_tensor_argument(f, model, rules, matcher, out);  // raised after it
  }
}

}  // namespace dispatchctl::torchgen
