// The refusal kinds (data) and the checks of one native_functions.yaml entry:
// NativeFunction.from_yaml / __post_init__ and FunctionSchema.__post_init__
// in torchgen/model.py. Group, view and derivatives checks: refusals_groups.cpp.
#include "torchgen/refusals.h"

#include <algorithm>

#include "torchgen/info_matcher.h"
#include "torchgen/refusals_detail.h"

namespace dispatchctl::torchgen {

const std::vector<RefusalKind>& refusal_kinds() {
  static const std::vector<RefusalKind> kinds = {
      {"field-value", "model.py NativeFunction.from_yaml",
       "a field value torchgen does not read (`device_guard: Maybe`, an unknown `device_check`, an illegal variant)",
       "write one of the values the field takes"},
      {"composite-conflict", "model.py NativeFunction.from_yaml",
       "more than one of CompositeExplicitAutograd, CompositeExplicitAutogradNonFunctional, "
       "CompositeImplicitAutograd on one entry",
       "keep one composite key (CompositeExplicitAutograd for an explicit autograd formula, else "
       "CompositeImplicitAutograd)"},
      {"delegate-backend-key", "model.py NativeFunction.from_yaml (STRUCTURED_DISPATCH_KEYS)",
       "a backend entry (CPU, CUDA, …) on a structured_delegate operator",
       "delete that dispatch entry: the delegate's structured out= kernel serves this operator"},
      {"delegate-missing", "gen.py error_check_native_functions",
       "structured_delegate names an operator the YAML does not declare", "point structured_delegate at the "
       "operator's out= variant, or declare it"},
      {"delegate-not-structured", "gen.py error_check_native_functions",
       "structured_delegate names an out= operator without `structured: True`",
       "add `structured: True` to the delegate, or drop structured_delegate"},
      {"manual-registration-dispatch", "model.py NativeFunction.from_yaml",
       "manual_kernel_registration together with a dispatch table",
       "drop the dispatch table or manual_kernel_registration"},
      {"factory-without-dispatch", "model.py NativeFunction.from_yaml",
       "a factory function (new_*, *_like, TensorOptions without a Tensor argument) without a dispatch table",
       "add `dispatch: CompositeExplicitAutograd: KERNEL`"},
      {"redundant-cia", "model.py NativeFunction.from_yaml",
       "a lone `CompositeImplicitAutograd:` entry naming the default kernel (\"unnecessary dispatch table\")",
       "delete the dispatch table: CompositeImplicitAutograd with that kernel is the default"},
      {"cia-kernel-name", "model.py NativeFunction.from_yaml",
       "a lone `CompositeImplicitAutograd:` entry with another kernel name than the operator's C++ name",
       "rename the kernel to the expected name and delete the dispatch table"},
      {"inplace-self", "model.py FunctionSchema.__post_init__",
       "an in-place operator (name ending in _) whose self is not Tensor(a!) returned as Tensor(a!)",
       "write the schema as `NAME_(Tensor(a!) self, …) -> Tensor(a!)`"},
      {"out-return-mismatch", "model.py FunctionSchema.__post_init__",
       "an out argument whose alias annotation differs from the return at its position",
       "return the out arguments in their order, each with its annotation: `-> (Tensor(a!), Tensor(b!))`"},
      {"mutable-positional-returned", "model.py FunctionSchema.__post_init__",
       "a mutable positional argument after self that is returned",
       "return nothing for it (`-> ()`), or make it a keyword-only out argument (after `*`)"},
      {"mixed-returns", "model.py FunctionSchema.__post_init__",
       "mutable and immutable returns in one schema", "return only the mutated tensors, or none of them"},
      {"mutable-return-alias", "model.py FunctionSchema.__post_init__",
       "a mutable return that aliases neither self nor a keyword-only out argument",
       "mark the out argument keyword-only (after `*`) or return self"},
      {"out-variants", "model.py NativeFunction.__post_init__",
       "an out= operator with the method variant", "write `variants: function` (or drop variants:)"},
      {"structured-not-out", "model.py NativeFunction.__post_init__",
       "`structured: True` on an operator that is not out=",
       "put `structured: True` on the out= variant and `structured_delegate:` here"},
      {"delegate-on-out", "model.py NativeFunction.__post_init__", "structured_delegate on an out= operator",
       "use `structured: True` on the out= variant instead"},
      {"nondeterministic-seeded", "model.py NativeFunction.__post_init__",
       "a random operator (rand/dropout in the name, or a Generator argument) without the "
       "nondeterministic_seeded tag",
       "add `tags: nondeterministic_seeded`"},
      {"lone-out", "native_function_generation.py add_generated_native_functions",
       "an out= operator without a functional, in-place or mutable variant",
       "declare the functional variant too"},
      {"structured-no-functional", "model.py NativeFunction.validate_unstructured",
       "`structured: True` on an out= operator without a functional variant", "declare the functional variant "
       "with `structured_delegate:` pointing here"},
      {"group-structured-mix", "model.py NativeFunctionsGroup.__post_init__",
       "a group (functional, in-place, out=) whose out= is structured while a member has no structured_delegate "
       "(or the reverse)",
       "give every member of a structured group `structured_delegate: OUT` (or make none structured)"},
      {"group-delegate-mismatch", "model.py NativeFunctionsGroup.__post_init__",
       "a member of a structured group delegating to another operator than the group's out=",
       "point structured_delegate at the group's out= variant"},
      {"autogen-mismatch", "model.py NativeFunctionsGroup.__post_init__",
       "`autogen:` that does not list exactly the variants torchgen generates (e.g. an out= the YAML already "
       "declares)",
       "list in autogen: exactly the variants the YAML does not declare"},
      {"view-without-copy", "model.py NativeFunctionsViewGroup.__post_init__",
       "a new view operator (not CompositeImplicitAutograd) without its NAME_copy operator",
       "add the NAME_copy operator (tag view_copy) or make the view CompositeImplicitAutograd"},
      {"view-copy-tag", "model.py NativeFunctionsViewGroup.__post_init__", "a NAME_copy operator of a view "
       "without the view_copy tag", "add `tags: view_copy` to the copy operator"},
      {"derivative-no-function", "tools/autograd/load_derivatives.py create_differentiability_info",
       "a derivatives.yaml entry whose schema matches no operator", "write the operator's schema exactly as "
       "native_functions.yaml declares it, or delete the entry"},
      {"derivative-unknown-name", "tools/autograd/load_derivatives.py create_forward_derivative",
       "a derivatives.yaml formula keyed by a name that is neither an input nor an output of the operator",
       "key the formula by one of the operator's argument names (or result for a forward formula)"},
      {"foreach-without-reference", "tools/autograd/gen_variable_type.py emit_body",
       "an in-place _foreach_ operator left without a differentiability info (e.g. the formula of the operator "
       "it derives its own from was deleted)",
       "keep (or restore) the reference operator's formula, or give the _foreach_ operator its own"},
      {"formula-on-cia", "tools/autograd/gen_variable_type.py gen_variable_type_func",
       "a derivatives.yaml formula for an operator with only a CompositeImplicitAutograd kernel",
       "give the operator a dispatch table (backend keys or CompositeExplicitAutograd), or delete the formula"},
      {"structured-inherits-unstructured", "model.py NativeFunction.__post_init__",
       "`structured_inherits:` on an operator without `structured: True`",
       "add `structured: True` (on the out= variant), or drop structured_inherits"},
      {"cpp-no-default-args", "model.py NativeFunction.__post_init__",
       "`cpp_no_default_args:` naming an argument the operator does not have, or one without a default",
       "list only arguments of the schema that have a default value"},
      {"python-module-method", "model.py NativeFunction.from_yaml",
       "`python_module:` on an operator with the method variant", "write `variants: function`, or drop python_module"},
      {"foreach-device-check", "model.py NativeFunction.__post_init__",
       "a _foreach_ operator without `device_check: NoCheck`", "add `device_check: NoCheck`"},
      {"derivative-grad-grads", "tools/autograd/load_derivatives.py check_grad_usage",
       "a derivatives.yaml entry whose backward formulas mix `grad` and `grads` (or `grad_RETURN` with either), "
       "or use only `grads[0]`",
       "name the gradient one way: `grad` for a single differentiable output, `grads[i]` for several"},
      {"output-differentiability-length", "tools/autograd gen_differentiable_outputs (torchgen/api/autograd.py)",
       "`output_differentiability:` with another number of entries than the operator has outputs",
       "give one True/False per output of the operator"},
      {"output-differentiability-inplace", "torchgen/api/autograd.py gen_differentiable_outputs",
       "`output_differentiability:` with a False in a formula an in-place operator takes",
       "give the in-place operator its own derivatives.yaml entry without output_differentiability, or make every "
       "output differentiable"},
  };
  return kinds;
}

std::string_view kind_fix(std::string_view id) {
  for (const auto& k : refusal_kinds())
    if (k.id == id) return k.fix;
  return {};
}

Refusal make_refusal(const NativeFunction& f, std::string_view id, std::string reason) {
  return {f.loc, f.func.full_name(), std::string(id), std::move(reason), std::string(kind_fix(id))};
}

namespace {

bool is_composite(const std::string& key) {
  return key == "CompositeExplicitAutograd" || key == "CompositeExplicitAutogradNonFunctional" ||
         key == "CompositeImplicitAutograd" || key == "CompositeImplicitAutogradNestedTensor";
}

bool has_tensor_argument(const FunctionSchema& s) {
  return std::any_of(s.arguments.begin(), s.arguments.end(),
                     [](const SchemaArgument& a) { return is_tensor_like(a.type); });
}

void check_dispatch(const NativeFunction& f, const TorchgenModel& model, const ReleaseRules& rules,
                    std::vector<Refusal>& out) {
  const std::string name = f.name();
  int composites = 0;
  bool ciant = false, ceanf = false;
  for (const auto& [key, structured] : f.dispatch) {
    composites += is_composite(key);
    ciant = ciant || key == "CompositeImplicitAutogradNestedTensor";
    ceanf = ceanf || key == "CompositeExplicitAutogradNonFunctional";
  }
  if (composites > 1 && !(composites == 2 && ciant && !ceanf))
    out.push_back(make_refusal(f, "composite-conflict",
                               "cannot specify more than one of CompositeExplicitAutograd, "
                               "CompositeExplicitAutogradNonFunctional, or CompositeImplicitAutograd on a single "
                               "kernel; each strictly subsumes the other"));
  if (f.manual_kernel_registration && f.dispatch_written)
    out.push_back(make_refusal(f, "manual-registration-dispatch",
                               "cannot specify both manual_kernel_registration and dispatch; with manual "
                               "registration, dispatch has no effect!"));
  const std::string cpp = cpp_name(f.func);
  // torchgen counts the entries as written, before gen.py drops MPS/XPU ({CIA, MPS} max_pool2d passes).
  if (f.dispatch_written && f.autograd_dispatch_keys.size() == 1 && f.kernel_names.count("CompositeImplicitAutograd")) {
    const std::string& kernel = f.kernel_names.at("CompositeImplicitAutograd");
    if (kernel == cpp)
      out.push_back(make_refusal(f, "redundant-cia",
                                 "unnecessary dispatch table for this function; just delete the dispatch key "
                                 "entirely"));
    else if (!f.structured_delegate && kernel.find("_symint") == std::string::npos)
      out.push_back(make_refusal(f, "cia-kernel-name",
                                 "unexpected name for singleton CompositeImplicitAutograd dispatch entry: expected " +
                                     cpp + " but got " + kernel));
  }
  const std::string base(unqualified_name(f.func));
  const bool factory = base.rfind("new_", 0) == 0 || (base.size() > 5 && base.substr(base.size() - 5) == "_like") ||
                       (has_tensor_options(f.func) && !has_tensor_argument(f.func));
  if (!f.dispatch_written && !f.structured && !f.structured_delegate && factory)
    out.push_back(make_refusal(f, "factory-without-dispatch",
                               "expected " + base + " to have a CompositeExplicitAutograd dispatch entry, but there "
                               "was no dispatch table. Factory functions should not have implicit dispatch as they "
                               "should not be decomposed for __torch_dispatch__"));
  if (!f.structured_delegate) return;
  for (const auto& key : rules.structured_keys)
    if (f.dispatch.count(key))
      out.push_back(make_refusal(f, "delegate-backend-key",
                                 "if structured_delegate, then must not have " + key +
                                     " in dispatch dictionary (it is delegated!)"));
  const std::string& target = *f.structured_delegate;
  const NativeFunction* delegate = model.find(target);
  if (!delegate)
    out.push_back(make_refusal(f, "delegate-missing", name + " is marked as a structured_delegate pointing to " +
                                                          target + ", but " + target + " is missing"));
  else if (!delegate->structured)
    out.push_back(make_refusal(f, "delegate-not-structured",
                               name + " is marked as a structured_delegate pointing to " + target + ", but " +
                                   target + " is not marked as structured"));
}

void check_schema(const NativeFunction& f, std::vector<Refusal>& out) {
  const FunctionSchema& s = f.func;
  // In torchgen's order: the out arguments against the returns, then the
  // mutable positional arguments, then the returns themselves.
  size_t position = 0;
  for (const auto& a : s.arguments) {
    if (!is_out_argument(a) || position >= s.returns.size()) continue;
    const SchemaArgument& r = s.returns[position++];
    if (a.alias != r.alias) {
      out.push_back(make_refusal(f, "out-return-mismatch",
                                 "Out arguments must have matching return Tensor; furthermore, the ith-argument "
                                 "needs to correspond to the ith return. arg.annotation=" + a.alias +
                                     ", ret.annotation=" + r.alias + " (argument " + a.name + ")"));
      break;
    }
  }
  for (const SchemaArgument* a : post_self_positional(s)) {
    if (!a->is_write()) continue;
    if (std::any_of(s.returns.begin(), s.returns.end(), [&](const SchemaArgument& r) { return r.alias == a->alias; })) {
      out.push_back(make_refusal(f, "mutable-positional-returned",
                                 "If you have a schema with mutable positional args, we expect them to not be "
                                 "returned. schema: " + torchgen_text(s)));
      break;
    }
  }
  size_t mutable_returns = 0;
  for (const auto& r : s.returns) mutable_returns += r.is_write();
  if (mutable_returns != 0 && mutable_returns != s.returns.size())
    out.push_back(make_refusal(f, "mixed-returns",
                               "NativeFunctions must have either only mutable returns, or only immutable returns. "
                               "Found: " + torchgen_text(s)));
  for (const auto& r : s.returns) {
    if (!r.is_write()) continue;
    const bool aliased = std::any_of(s.arguments.begin(), s.arguments.end(), [&](const SchemaArgument& a) {
      return a.alias == r.alias && (is_out_argument(a) || (!a.kwarg_only && a.name == "self"));
    });
    if (!aliased) {
      out.push_back(make_refusal(f, "mutable-return-alias",
                                 "All mutable returns must be aliased either to a keyword argument, or to \"self\". "
                                 "Did you forget to mark an out argument as keyword-only?"));
      break;
    }
  }
  if (base_name(s).inplace) {
    const SchemaArgument* self = self_argument(s);
    bool ok = self && self->is_write();
    if (ok && type_text(*self) == "Tensor")
      ok = s.returns.size() == 1 && s.returns[0].alias == self->alias;
    else if (ok)
      ok = s.returns.empty();
    if (!ok)
      out.push_back(make_refusal(f, "inplace-self",
                                 "in-place operator " + f.name() + " must take `Tensor(a!) self` and return it as "
                                 "`Tensor(a!)` (FunctionSchema assertion on " + torchgen_text(s) + ")"));
  }
}

void check_function(const NativeFunction& f, std::vector<Refusal>& out) {
  const SchemaKind kind = schema_kind(f.func);
  if (is_out_fn(f.func) && f.variants.count("method"))
    out.push_back(make_refusal(f, "out-variants",
                               "Native functions with out arguments MUST be declared with only function variant"));
  if (f.structured && kind != SchemaKind::Out)
    out.push_back(make_refusal(f, "structured-not-out",
                               "Put structured field on the out= variant of a function; did you mean "
                               "structured_delegate?"));
  if (f.structured_delegate && kind == SchemaKind::Out)
    out.push_back(make_refusal(f, "delegate-on-out",
                               "structured_delegate field not allowed on out= functions; did you mean structured?"));
  const std::string full = f.name();
  const bool dropout = full.find("dropout") != std::string::npos && full.find("backward") == std::string::npos &&
                       base_name(f.func).base != "_cudnn_init_dropout_state";
  const bool generator = std::any_of(f.func.arguments.begin(), f.func.arguments.end(), [](const SchemaArgument& a) {
    const std::string type = type_text(a);
    return type == "Generator" || type == "Generator?";
  });
  if ((full.find("rand") != std::string::npos || dropout || generator) && !f.tags.count("nondeterministic_seeded"))
    out.push_back(make_refusal(f, "nondeterministic-seeded",
                               full + " is random (its name or a Generator argument) but has no "
                                      "nondeterministic_seeded tag"));
}

}  // namespace

std::vector<Refusal> find_refusals(const TorchgenModel& model, const ReleaseRules& rules) {
  std::vector<Refusal> out = model.parse_refusals;
  for (const auto& f : model.functions) {
    if (f.generated) continue;
    check_dispatch(f, model, rules, out);
    check_schema(f, out);
    check_function(f, out);
  }
  check_groups(model, rules, out);
  check_views(model, rules, out);
  check_derivatives(model, rules, out);
  check_more(model, out);
  std::stable_sort(out.begin(), out.end(), [](const Refusal& a, const Refusal& b) {
    return std::make_pair(a.loc.file, a.loc.line) < std::make_pair(b.loc.file, b.loc.line);
  });
  return out;
}

void refuse_if_any(const TorchgenModel& model, const ReleaseRules& rules) {
  const std::vector<Refusal> refusals = find_refusals(model, rules);
  if (!refusals.empty()) throw TorchgenRefusal(refusals.front());
}

}  // namespace dispatchctl::torchgen
