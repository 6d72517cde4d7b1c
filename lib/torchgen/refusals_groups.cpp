// Refusals that need more than one entry: NativeFunctionsGroup and
// add_generated_native_functions (groups), NativeFunctionsViewGroup (views),
// tools/autograd's derivative loading and gen_variable_type (derivatives).
#include <algorithm>
#include <cctype>
#include <map>
#include <set>

#include "torchgen/grouping.h"
#include "torchgen/info_matcher.h"
#include "torchgen/refusals_detail.h"
#include "util/join.h"

namespace dispatchctl::torchgen {
namespace {

bool part_of_structured_group(const NativeFunction& f) { return f.structured || f.structured_delegate.has_value(); }

std::string sorted_join(std::set<std::string> names) { return join(std::vector<std::string>(names.begin(), names.end())); }

// A default changed on one variant splits it from its group: torchgen then
// stops at the lone out= (and tools/autograd at the derivatives.yaml entry
// that no longer matches). One cause, one finding, at the entry that was
// edited: the functional whose defaults differ from both its out= and its
// derivatives.yaml `- name:` line (two copies of the schema outvote one).
// nullptr when there is no such functional, or when the out= is the odd one.
const NativeFunction* functional_with_changed_default(const FunctionSchema& out_schema, const TorchgenModel& model) {
  const std::string exact = torchgen_text(signature(out_schema)), loose = torchgen_text(signature(out_schema, true));
  const bool witness = std::any_of(model.derivatives.begin(), model.derivatives.end(), [&](const auto& info) {
    return torchgen_text(signature(info.func)) == exact;
  });
  if (!witness) return nullptr;
  for (const auto& f : model.functions)
    if (!f.generated && schema_kind(f.func) == SchemaKind::Functional &&
        torchgen_text(signature(f.func, true)) == loose && torchgen_text(signature(f.func)) != exact)
      return &f;
  return nullptr;
}

}  // namespace

namespace {

// pre_group_native_functions asserts one operator per signature and kind
// (the YAML's own entries: group_by_signature keeps the first).
void check_duplicate_signatures(const TorchgenModel& model, std::vector<Refusal>& out) {
  std::map<std::pair<std::string, SchemaKind>, const NativeFunction*> seen;
  for (const auto& f : model.functions) {
    if (f.generated) continue;
    const auto [it, fresh] = seen.emplace(std::make_pair(torchgen_text(signature(f.func)), schema_kind(f.func)), &f);
    if (!fresh)
      out.push_back(make_refusal(f, "duplicate-signature",
                                 "Duplicate schema kind for " + torchgen_text(f.func) + ": " + it->second->name() +
                                     " has the same signature"));
  }
}

// add_generated_native_functions: a group torchgen generates variants for
// needs a base it can write an out= variant of (a tensor-like return, or in-place).
void check_out_variant_possible(const SignatureGroup& group, const TorchgenModel& model, const ReleaseRules& rules,
                                std::vector<Refusal>& out) {
  const NativeFunction* base = generation_base(group, model.functions, rules);
  if (!base || group.members.count(SchemaKind::Out) || schema_kind(base->func) == SchemaKind::Inplace) return;
  for (const auto& r : base->func.returns)
    if (is_tensor_like(r.type)) return;
  if (rules.ops_without_out_variant.count(base->name())) return;
  out.push_back(make_refusal(*base, "no-out-variant",
                             "Found an operator that we could not generate an out= variant for: " +
                                 torchgen_text(base->func) + ". This type of operators don't have tensor-like "
                                 "return, making it difficult to generate a proper out= variant"));
}

// NativeFunctionsGroup.from_dict: variants of one signature (after torchgen
// added what it generates) need their functional, reported at the first.
void check_functional_present(const SignatureGroup& group, const TorchgenModel& model, std::vector<Refusal>& out) {
  if (group.members.size() < 2 || group.members.count(SchemaKind::Functional)) return;
  const NativeFunction* first = nullptr;
  for (const auto& [kind, index] : group.members)
    if (!first || model.functions[index].loc.line < first->loc.line) first = &model.functions[index];
  std::vector<std::string> names;
  for (const auto& [kind, index] : group.members) names.push_back(model.functions[index].name());
  Refusal r = make_refusal(*first, "functional-required",
                           "functional variant is required: " + join(names) + " share the signature " +
                               group.signature + " and torchgen generates no functional for them");
  r.fix = "declare the functional variant `- func: " + group.signature + "` beside them";
  out.push_back(std::move(r));
}

// add_generated_native_functions: a lone out= in a group it does not skip,
// not one of OUT_OPS_THAT_DONT_GET_GROUPED_PROPERLY (or reported at the
// functional whose default changed).
bool lone_out_refused(const SignatureGroup& group, const TorchgenModel& model, const ReleaseRules& rules) {
  const auto out_member = group.members.find(SchemaKind::Out);
  if (group.members.size() != 1 || out_member == group.members.end() ||
      generation_skipped(group, model.functions, rules))
    return false;
  const NativeFunction& f = model.functions[out_member->second];
  return !rules.out_ops_not_grouped.count(f.name()) || functional_with_changed_default(f.func, model);
}

// gen.py writing RegisterFunctionalization (gen_functionalization_definition,
// torchgen.gen past a dry run): an operator outside every NativeFunctionsGroup
// and NativeFunctionsViewGroup that writes an argument needs a
// CompositeImplicitAutograd kernel, or a place in MUTABLE_OPS_NOT_USING_FUNCTIONALIZATION
// (by operator or base name). A lone out= that add_generated_native_functions
// refuses (lone-out, earlier in torchgen.gen) is not reported again.
void check_ungrouped_mutable(const SignatureGroup& group, const TorchgenModel& model, const ReleaseRules& rules,
                             const ViewGroups& views, std::vector<Refusal>& out) {
  if (group.is_full_group() || lone_out_refused(group, model, rules)) return;
  for (const auto& [kind, index] : group.members) {
    const NativeFunction& f = model.functions[index];
    const bool modifies = std::any_of(f.func.arguments.begin(), f.func.arguments.end(),
                                      [](const SchemaArgument& a) { return a.is_write(); });
    if (!modifies || f.has_cia() || views.holds_modifying(f) ||
        rules.mutable_ops_not_using_functionalization.count(f.name()) ||
        rules.mutable_ops_not_using_functionalization.count(base_name(f.func).to_string()))
      continue;
    Refusal refusal = make_refusal(f, "ungrouped-mutable",
                                   "Expected composite implicit autograd kernel or non-modifying function: " +
                                       torchgen_text(f.func));
    // A group torchgen can complete (no operator of the names it would add):
    // autogen: on the base is the fix; else the operator did not group with
    // the variants of its name (another default or argument).
    const std::vector<std::string> autogen = autogen_to_group(group, model.functions, rules);
    const bool names_free = std::none_of(autogen.begin(), autogen.end(), [&](const std::string& n) {
      return model.find(n) != nullptr;
    });
    const NativeFunction* base = generation_base(group, model.functions, rules);
    if (!autogen.empty() && names_free && base == &f && f.autogen.empty())
      refusal.fix = "add `autogen: " + join(autogen, ", ") + "` to " + f.name() +
                    " (torchgen then generates the variants it groups with), or declare them";
    out.push_back(std::move(refusal));
  }
}

}  // namespace

void check_groups(const TorchgenModel& model, const ReleaseRules& rules, const ViewGroups& views,
                  const std::vector<SignatureGroup>& groups, std::vector<Refusal>& out,
                  std::vector<Refusal>& functionalization) {
  check_duplicate_signatures(model, out);
  for (const SignatureGroup& group : groups) {
    check_ungrouped_mutable(group, model, rules, views, functionalization);
    check_out_variant_possible(group, model, rules, out);
    check_functional_present(group, model, out);
    const auto out_member = group.members.find(SchemaKind::Out);
    if (lone_out_refused(group, model, rules)) {
      const NativeFunction& f = model.functions[out_member->second];
      const NativeFunction* edited = functional_with_changed_default(f.func, model);
      if (edited)
        out.push_back(make_refusal(*edited, "lone-out",
                                   edited->name() + "'s defaults differ from " + f.name() + "'s and from its "
                                   "derivatives.yaml entry, so torchgen no longer groups them: Found an out= operator "
                                   "that we could not find any other variants of: " + torchgen_text(f.func)));
      else
        out.push_back(make_refusal(f, "lone-out",
                                   "Found an out= operator that we could not find any other variants of: " +
                                       torchgen_text(f.func)));
    }
    for (const auto& [kind, index] : group.members) {
      const NativeFunction& f = model.functions[index];
      if (f.structured && kind == SchemaKind::Out && !group.is_full_group() &&
          !(group.members.size() == 1 && functional_with_changed_default(f.func, model)))
        out.push_back(make_refusal(f, "structured-no-functional",
                                   "This function is structured, but there was no valid functional variant of it"));
    }
    if (!group.is_full_group()) continue;
    const NativeFunction& out_fn = model.functions[out_member->second];
    const size_t group_refusals = out.size();
    if (out_fn.structured && (out_fn.has_cia() || out_fn.has("CompositeImplicitAutogradNestedTensor")))
      out.push_back(make_refusal(out_fn, "structured-composite",
                                 "structured composite kernels are not supported (" + out_fn.name() +
                                     " is structured and has a CompositeImplicitAutograd kernel)"));
    std::set<std::string> generated, expected;
    for (const auto& [kind, index] : group.members) {
      const NativeFunction& f = model.functions[index];
      if (f.generated) generated.insert(f.name());
      for (const auto& name : f.autogen) expected.insert(name);
      if (out_fn.structured != part_of_structured_group(f))
        out.push_back(make_refusal(f.generated ? out_fn : f, "group-structured-mix",
                                   "NativeFunctionsGroup constructed from structured and unstructured functions: " +
                                       out_fn.name() + " and " + f.name()));
      else if (out_fn.structured && kind != SchemaKind::Out && f.structured_delegate != out_fn.name())
        out.push_back(make_refusal(f, "group-delegate-mismatch",
                                   f.name() + " delegates to " + f.structured_delegate.value_or("nothing") +
                                       " but its actual delegate is " + out_fn.name()));
    }
    // NativeFunctionsGroup.__post_init__ stops at its first assert: its autogen
    // check comes last (a structured out= beside a generated, unstructured functional
    // is refused as the mix, not as the autogen: line the generated functional needs).
    if (generated == expected || out.size() > group_refusals) continue;
    // Reported at the entry that writes autogen: (else the group's first declared member).
    const NativeFunction* at = nullptr;
    for (const auto& [kind, index] : group.members) {
      const NativeFunction& f = model.functions[index];
      if (!f.generated && (!at || !f.autogen.empty())) at = &f;
    }
    if (!at) continue;
    const std::string gen = sorted_join(generated);
    out.push_back(make_refusal(*at, "autogen-mismatch",
                               expected.empty()
                                   ? "The codegen expects to be able to generate '" + gen +
                                         "'. In order to generate them however, we expect them to be called out "
                                         "explicitly in the yaml. Please add an 'autogen: " + gen + "' line"
                                   : "The codegen expects to be able to generate '" + gen +
                                         "'. To do so, it expects a line: 'autogen: " + gen +
                                         "'. Instead, it found 'autogen: " + sorted_join(expected) + "'"));
  }
}

namespace {

// is_forward_derivative_definition + create_forward_derivative: a key whose
// first name is no argument is a forward formula and must name an output.
bool names_something(const std::string& key, const FunctionSchema& s) {
  const std::vector<std::string> names = split_formula_names(key);
  if (is_argument_name(s, names.front())) return true;
  for (const auto& n : names) {
    if (std::any_of(s.returns.begin(), s.returns.end(), [&](const SchemaArgument& r) { return r.name == n; }))
      return true;
    // "result0", "result12": ^result\d+$
    if (n.size() > 6 && n.starts_with("result") &&
        std::all_of(n.begin() + 6, n.end(), [](unsigned char c) { return std::isdigit(c); }))
      return true;
  }
  return names.size() == 1 && names.front() == "result";
}

// all_saved_inputs naming self: a backward formula (keyed by inputs) reading it.
bool saves_self(const DifferentiabilityInfo& info) {
  return std::any_of(info.formulas.begin(), info.formulas.end(), [&](const DifferentiabilityInfo::Formula& f) {
    return !f.non_differentiable && is_argument_name(info.func, split_formula_names(f.names).front()) &&
           uses_ident(f.text, "self");
  });
}

}  // namespace

void check_derivatives(const TorchgenModel& model, const ReleaseRules& rules, const InfoMatcher& matcher,
                       std::vector<Refusal>& out) {
  if (!model.has_derivatives_yaml) return;
  std::map<std::string, const NativeFunction*> by_schema;
  for (const auto& f : model.functions) by_schema.emplace(torchgen_text(f.func), &f);  // generated ones too
  auto at_info = [](const DifferentiabilityInfo& info, int line, std::string_view id, std::string reason) {
    return Refusal{{info.loc.file, line}, info.func.full_name(), std::string(id), std::move(reason),
                   std::string(kind_fix(id))};
  };
  // load_derivatives stops at an entry that names no function: no operator
  // takes its formulas (its defaults rewritten, hinge_embedding_loss would
  // be refused as a formula on a CompositeImplicitAutograd operator next).
  std::set<const DifferentiabilityInfo*> unmatched;
  for (const auto& info : model.derivatives) {
    const std::string schema = torchgen_text(info.func);
    if (!by_schema.count(schema)) {
      // The functional's default changed: reported once, at the functional (check_groups).
      const bool default_changed = std::any_of(model.functions.begin(), model.functions.end(), [&](const auto& f) {
        return schema_kind(f.func) == SchemaKind::Out && torchgen_text(signature(f.func)) == torchgen_text(signature(info.func)) &&
               functional_with_changed_default(f.func, model);
      });
      if (default_changed) continue;
      out.push_back(at_info(info, info.loc.line, "derivative-no-function",
                            "could not find ATen function for schema: " + schema));
      unmatched.insert(&info);
      continue;
    }
    // create_differentiability_info looks the name up as written, not parsed.
    if (!info.written_name.empty() && info.written_name != schema) {
      out.push_back(at_info(info, info.loc.line, "derivative-no-function",
                            "could not find ATen function for schema: " + info.written_name +
                                " (native_functions.yaml declares it as " + schema +
                                "; torchgen compares the text exactly)"));
      continue;
    }
    // canonical_function: the entry's operator may not be one whose overload names
    // `functional` (unless an in-place one of the entry's name serves it).
    const NativeFunction& f = *by_schema.at(schema);
    if (f.func.overload_name.find("functional") != std::string::npos && schema_kind(f.func) != SchemaKind::Inplace) {
      out.push_back(at_info(info, info.loc.line, "derivative-functional-overload",
                            "Expected inplace function name '" + std::string(unqualified_name(f.func)) + "_', got '" +
                                cpp_name(f.func) + "' (" + f.name() + "'s overload names `functional`)"));
      continue;
    }
    for (const auto& [key, line] : info.formula_keys)
      if (!names_something(key, info.func))
        out.push_back(at_info(info, line, "derivative-unknown-name",
                              "the formula for " + op_name(info.func) + " is keyed by '" + key +
                                  "', which is neither an argument nor an output of it (torchgen: No matching "
                                  "output for forward derivative definition)"));
  }
  std::set<const DifferentiabilityInfo*> length_refused, reused;
  for (const auto& f : model.functions) {
    if (rules.manual_autograd.count(cpp_name(f.func))) continue;
    const DifferentiabilityInfo* info = matcher.find(f);
    if (unmatched.count(info)) info = nullptr;
    // match_differentiability_info: a generated functional takes its mutable
    // variant's formula, unless that formula saves an input named like self
    // (the codegen cannot rewrite it). Once per entry, at the entry.
    if (info && f.generated && schema_kind(f.func) != SchemaKind::Out &&
        schema_kind(info->func) != SchemaKind::Functional && saves_self(*info) && reused.insert(info).second) {
      Refusal r = at_info(*info, info->loc.line, "mutable-formula-reused",
                          "Attempted to convert a derivative formula for a mutable operator to be used automatically "
                          "by its functional variant (\"" + torchgen_text(f.func) + "\"). This is not currently "
                          "supported (we'd need to fix up the formula in the codegen)");
      r.fix = "write the formulas for the functional instead (`- name: " + torchgen_text(f.func) +
              "`): the in-place variant takes them too";
      out.push_back(std::move(r));
    }
    // gen_differentiable_outputs: a variant that takes the entry's formulas
    // (an out= whose tensor-list out returns `()`, a view's _copy.out) must
    // have as many outputs as output_differentiability has entries. The
    // entry's own count is refusals_more's; reported once per entry.
    const auto* od = info && info->output_differentiability ? &*info->output_differentiability : nullptr;
    if (od && !od->conditions && od->length == info->func.returns.size() && od->length != f.func.returns.size() &&
        (f.is_abstract_for_autograd() || info->has_derivatives()) && length_refused.insert(info).second)
      out.push_back(at_info(*info, od->line, "output-differentiability-length",
                            "The length of output_differentiability (" + std::to_string(od->length) +
                                "), does not match the number of outputs (" + std::to_string(f.func.returns.size()) +
                                ") of " + f.name() + ", which takes the formula of " + op_name(info->func)));
    if (info && info->has_derivatives() && !f.is_abstract_for_autograd())
      out.push_back(make_refusal(f, "formula-on-cia",
                                 "There's a formula for " + cpp_name(f.func) + "(or its functional variant) in "
                                 "derivatives.yaml. It's required to add a dispatch section for it with explicit "
                                 "supported backends e.g CPU/CUDA or CompositeExplicitAutograd in "
                                 "native_functions.yaml"));
    if (info && info->output_differentiability && info->output_differentiability->any_false &&
        schema_kind(f.func) == SchemaKind::Inplace)
      out.push_back(at_info(*info, info->output_differentiability->line, "output-differentiability-inplace",
                            "output_differentiability=False for inplace operation (version_counter won't get "
                            "updated): " + f.name() + " takes the formula of " + op_name(info->func)));
    if (!rules.foreach_inplace_needs_derivatives || !is_foreach(f) || schema_kind(f.func) != SchemaKind::Inplace) continue;
    if (info || !f.is_abstract_for_autograd()) continue;
    const std::string base_overload = base_name(f.func).base + (f.func.overload_name.empty() ? "" : "." + f.func.overload_name);
    if (rules.foreach_ops_without_differentiability_info.count(base_overload)) continue;
    if (!has_foreach_reference(f, model, rules))
      out.push_back(make_refusal(f, "foreach-without-reference", base_overload + " should have a differentiability "
                                                                                  "info"));
  }
}

}  // namespace dispatchctl::torchgen
