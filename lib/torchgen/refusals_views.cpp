// View operators as torchgen 2.14.1 groups and generates them:
//   model.py NativeFunctionsViewGroup.__post_init__ (a view's _copy, paired
//     by view_signature, with the view_copy tag);
//   gen_functionalization_type.py (torchgen.gen past a dry run): the view's
//     functionalization kernel (assert_view_op_properties, the SymInt checks
//     of its ViewMeta), the ViewMeta class (its arguments kept by value) and
//     the composite _copy kernel (one Tensor or Tensor[] return, a
//     CompositeExplicitAutogradNonFunctional kernel);
//   tools/autograd gen_inplace_or_view_type.py (gen_autograd): the
//     ADInplaceOrView body of an operator of VIEW_FUNCTIONS' names (one
//     differentiable output, arguments its view replay can close over).
// Each reported at the entry to edit: the view, or its _copy.
#include <algorithm>
#include <unordered_map>

#include "torchgen/differentiability.h"
#include "torchgen/info_matcher.h"
#include "torchgen/refusals_detail.h"
#include "util/join.h"

namespace dispatchctl::torchgen {

ViewGroups::ViewGroups(const TorchgenModel& model, const ReleaseRules& rules) : rules_(rules) {
  for (const NativeFunction& f : model.functions) {
    if (is_view(f)) {
      with_view_.insert(torchgen_text(view_signature(f.func)));
      continue;
    }
    if (f.is_view_op(rules.inplace_view_not_views) && base_name(f.func).inplace) {
      inplace_.emplace(torchgen_text(view_signature(f.func)), &f);
      continue;
    }
    // Only a functional whose view_signature renames it can share a view's
    // (one of the view's own name would be a duplicate signature first).
    const std::string base = base_name(f.func).base;
    if ((base.ends_with("_copy") || base.ends_with("_scatter")) && schema_kind(f.func) == SchemaKind::Functional &&
        !f.is_view_op(rules.inplace_view_not_views))
      functional_.emplace(torchgen_text(view_signature(f.func)), &f);
  }
}

bool ViewGroups::is_view(const NativeFunction& f) const {
  return f.is_view_op(rules_.inplace_view_not_views) && !base_name(f.func).inplace;
}

const NativeFunction* ViewGroups::copy_of(const NativeFunction& view) const {
  const auto it = functional_.find(torchgen_text(view_signature(view.func)));
  return it == functional_.end() ? nullptr : it->second;
}

const NativeFunction* ViewGroups::inplace_of(const NativeFunction& view) const {
  const auto it = inplace_.find(torchgen_text(view_signature(view.func)));
  return it == inplace_.end() ? nullptr : it->second;
}

bool ViewGroups::holds_modifying(const NativeFunction& f) const {
  return f.is_view_op(rules_.inplace_view_not_views) &&
         (!base_name(f.func).inplace || with_view_.count(torchgen_text(view_signature(f.func))));
}

namespace {

// gets_generated_view_copy: views other than CompositeImplicitAutograd ones,
// in-place views and those whose name ends in an exempt suffix (_inverse).
bool gets_generated_view_copy(const NativeFunction& f, const ReleaseRules& rules) {
  if (f.has_cia() || f.tags.count("inplace_view")) return false;
  const std::string base = base_name(f.func).base;
  return std::none_of(rules.view_copy_exempt_suffixes.begin(), rules.view_copy_exempt_suffixes.end(),
                      [&](const std::string& s) { return base.ends_with(s); });
}

std::string copy_name(const NativeFunction& view) {
  return base_name(view.func).base + "_copy" + (view.func.overload_name.empty() ? "" : "." + view.func.overload_name);
}

// A non-composite view's functionalization kernel, ViewMeta and _copy kernel,
// in the order torchgen.gen writes them (RegisterFunctionalization.cpp,
// ViewMetaClasses.h, CompositeViewCopyKernels.cpp): the first refusal, if any.
std::optional<std::string> functionalization_refusal(const NativeFunction& f, const ReleaseRules& rules) {
  std::vector<const SchemaArgument*> args;  // flat_non_out
  for (const auto& a : f.func.arguments)
    if (!is_out_argument(a)) args.push_back(&a);
  if (args.empty() || type_text(args.front()->type) != "Tensor")
    return "In the functionalization codegen, we expect the first argument of every view operator to be a tensor, "
           "but found an argument of type " + (args.empty() ? std::string("(none)") : type_text(*args.front())) +
           " for operator: " + f.name();
  if (args.front()->alias.empty() ||
      std::any_of(args.begin() + 1, args.end(), [](const SchemaArgument* a) { return !a->alias.empty(); }))
    return "In the functionalization codegen, we expect the first argument of every view operator to alias the "
           "output. View operators with multiple aliasing inputs aren't supported yet. Found an operator that "
           "doesn't satisfy this constraint";
  for (const auto* a : args)
    if (rules.view_symint_check_unsupported_types.count(type_text(a->type)))
      return "unsupported type for has_symbolic_values check. It should be a SymInt or a collection of those. Got: " +
             type_text(a->type) + " (argument " + a->name + " of the view " + f.name() + ")";
  for (const auto* a : args)
    if (rules.view_meta_unsupported_types.count(type_text(a->type)))
      return "Failed to synthesize the expression \"" + type_text(a->type) + " " + a->name + "\" (" + f.name() +
             "'s ViewMeta keeps its arguments by value, and the codegen cannot convert this type)";
  if (f.func.returns.size() != 1)
    return "Expected 1 return, got " + std::to_string(f.func.returns.size()) +
           " (a view's functionalization writes one output: return a Tensor(a)[] list)";
  return std::nullopt;
}

}  // namespace

void check_views(const TorchgenModel& model, const ReleaseRules& rules, const ViewGroups& groups,
                 std::vector<Refusal>& out) {
  std::unordered_map<std::string, const NativeFunction*> by_name;
  for (const auto& f : model.functions) by_name[f.name()] = &f;
  for (const auto& f : model.functions) {
    if (f.generated || !groups.is_view(f) || f.tags.count("inplace_view")) continue;
    const NativeFunction* copy = groups.copy_of(f);
    if (!copy && gets_generated_view_copy(f, rules)) {
      const std::string name = copy_name(f);
      const bool declared = by_name.count(name) != 0;
      Refusal r = make_refusal(f, "view-without-copy",
                               f.name() + " appears to be a new operator that aliases its inputs. The codegen "
                                          "expects you to add a corresponding operator to native_functions.yaml: " +
                                   name + (declared ? " (" + name + " is declared, but the codegen pairs a view with "
                                                      "its _copy by signature, and its arguments or defaults differ)"
                                                    : ""));
      if (declared)
        r.fix = "give " + name + " exactly " + f.name() + "'s arguments, defaults and returns (without the alias "
                "annotations)";
      out.push_back(std::move(r));
      continue;
    }
    // A composite view's in-place view is composite too (both decompose).
    const NativeFunction* inplace = groups.inplace_of(f);
    for (const char* key : {"CompositeImplicitAutograd", "CompositeImplicitAutogradNestedTensor"})
      if (inplace && f.has(key) && !inplace->has(key)) {
        out.push_back(make_refusal(*inplace, "view-inplace-composite",
                                   f.name() + " and " + inplace->name() + " must either both have " + key +
                                       " kernels, or both not have composite kernels"));
        break;
      }
    if (copy && !copy->tags.count("view_copy"))
      out.push_back(make_refusal(*copy, "view-copy-tag",
                                 copy->name() + " appears to be a view_copy operator. The codegen expects view_copy "
                                                "operators to be annotated with the 'view_copy' tag"));
    if (!f.has_cia()) {
      if (!copy)
        out.push_back(make_refusal(f, "view-without-copy", "Expected view_copy to be non-None: " + f.name() +
                                                               " has no " + copy_name(f) + " operator"));
      else if (auto reason = functionalization_refusal(f, rules))
        out.push_back(make_refusal(f, "view-functionalization", *reason));
    }
    // GenCompositeViewCopyKernel: a _copy named VIEW_copy gets its kernel at
    // the release's key (CompositeExplicitAutogradNonFunctional in 2.x).
    const std::string& key = rules.view_copy_kernel_key;
    if (copy && !key.empty() && base_name(copy->func).base == base_name(f.func).base + "_copy" && !copy->has(key))
      out.push_back(make_refusal(*copy, "view-copy-kernel",
                                 "Expected metadata for view_copy kernel: " + copy->name() + " (the codegen writes "
                                 "its kernel at " + key + ")"));
  }
}

void check_view_replay(const TorchgenModel& model, const ReleaseRules& rules, const InfoMatcher& matcher,
                       std::vector<Refusal>& out) {
  // gen_autograd runs with a derivatives.yaml (without it, view.dtype's
  // output_differentiability: [False] is not known); the release's list recorded.
  if (!model.has_derivatives_yaml || rules.view_replay_argument_types.empty()) return;
  for (const auto& f : model.functions) {
    const std::string base = base_name(f.func).base;
    const SchemaKind kind = schema_kind(f.func);
    if (f.generated || !rules.view_functions.count(base) || kind == SchemaKind::Inplace || kind == SchemaKind::Out ||
        rules.manual_autograd.count(cpp_name(f.func)))
      continue;
    const DifferentiabilityInfo* info = matcher.find(f);
    if (!f.is_abstract_for_autograd() && !(info && info->has_derivatives())) continue;  // no ADInplaceOrView kernel
    // gen_differentiable_outputs at Default: output_differentiability, else the tensor-like returns.
    std::vector<size_t> outputs;
    const std::vector<std::string> names = return_names(f.func);
    if (info) {
      const Differentiability d = differentiability(f.func, *info, "Default", rules);
      if (d.lengths_refused) continue;  // output-differentiability-length says it
      for (size_t i = 0; i < names.size(); ++i)
        if (std::count(d.outputs.begin(), d.outputs.end(), names[i])) outputs.push_back(i);
    } else {
      for (size_t i = 0; i < f.func.returns.size(); ++i)
        if (is_tensor_like(f.func.returns[i].type)) outputs.push_back(i);
    }
    if (outputs.size() > 1) {
      out.push_back(make_refusal(f, "view-outputs",
                                 "Function that return multiple differentiable output when at least one of them is "
                                 "view is not supported (" + f.name() + " has the name of the view function " + base +
                                 ")"));
      continue;
    }
    if (outputs.empty()) continue;
    const std::string type = type_text(f.func.returns[outputs.front()].type);
    if (type != "Tensor" && type != "Tensor[]") {
      out.push_back(make_refusal(f, "view-outputs",
                                 base + " that return differentiable views can only return Tensor or Tensor[] (" +
                                     f.name() + " returns " + type + ")"));
      continue;
    }
    for (const auto& a : f.func.arguments) {
      if (a.name == "self" || (!a.is_write() && rules.view_replay_argument_types.count(type_text(a.type)))) continue;
      out.push_back(make_refusal(f, "view-argument-type",
                                 "You are adding an argument " + a.name + " of type " + type_text(a) + " to op " +
                                     cpp_name(f.func) + " (one of VIEW_FUNCTIONS' names) in addition to known "
                                     "types: " + join(std::vector<std::string>(rules.view_replay_argument_types.begin(),
                                                                               rules.view_replay_argument_types.end()))));
      break;
    }
  }
}

}  // namespace dispatchctl::torchgen
