// The checks of one native_functions.yaml entry:
// NativeFunction.from_yaml / __post_init__ and FunctionSchema.__post_init__
// in torchgen/model.py. Group, view and derivatives checks: refusals_groups.cpp.
#include "torchgen/refusals.h"

#include <algorithm>
#include <filesystem>
#include <utility>

#include "torchgen/info_matcher.h"
#include "torchgen/refusals_detail.h"
#include "torchgen/refusals_model2.h"
#include "torchgen/refusals_ufunc.h"

namespace dispatchctl::torchgen {

std::string_view kind_fix(std::string_view id) {
  const RefusalKind* kind = refusal_kind(id);
  return kind ? kind->fix : std::string_view{};
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
  // dest/register_dispatch_key.py gen_structured, only as the full torchgen.gen
  // writes Register<Key>.cpp (a --dry-run passes): the kernels of these keys
  // are generated for a structured group, so its out= must not name one.
  if (f.structured)
    for (const auto& key : rules.structured_generated_keys)
      if (f.dispatch.count(key)) {
        out.push_back(make_refusal(f, "structured-generated-key",
                                   "Do not explicitly specify " + key + " dispatch key on structured functions, they "
                                   "will be automatically generated for you"));
        break;
      }
  if (f.manual_kernel_registration && f.dispatch_written)
    out.push_back(make_refusal(f, "manual-registration-dispatch",
                               "cannot specify both manual_kernel_registration and dispatch; with manual "
                               "registration, dispatch has no effect!"));
  const std::string cpp = cpp_name(f.func);
  // api/types/signatures.py kernel_signature: a kernel named *_symint takes
  // SymInts, so the schema must have a SymInt argument.
  const bool symint_schema = std::any_of(f.func.arguments.begin(), f.func.arguments.end(), [](const SchemaArgument& a) {
    return type_text(a.type).find("SymInt") != std::string::npos;
  });
  for (const auto& [key, kernel] : f.kernel_names)
    if (!symint_schema && kernel.find("_symint") != std::string::npos && f.dispatch.count(key) && !f.dispatch.at(key)) {
      out.push_back(make_refusal(f, "symint-kernel", "attempted to define symint kernel for " + key +
                                                         " without SymInt in schema (" + kernel + ")"));
      break;
    }
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
  if (f.structured_inherits && f.structured_inherits->find("::") != std::string::npos)
    out.push_back(make_refusal(f, "namespaced-reference",
                               "namespace is not supported in structured inherits, using the same namespace as the "
                               "native function (structured_inherits: " + *f.structured_inherits + ")"));
  if (!f.structured_delegate) return;
  if (f.structured_delegate->find("::") != std::string::npos) {
    out.push_back(make_refusal(f, "namespaced-reference",
                               "namespace is not supported in structured delegate, using the same namespace as the "
                               "native function (structured_delegate: " + *f.structured_delegate + ")"));
    return;
  }
  // tools/autograd parses the YAML again without dropping gen.py's ignored
  // keys (MPS, XPU without --mps/--xpu), so those count as well.
  for (const auto& key : rules.structured_keys)
    if (f.dispatch.count(key) || f.autograd_dispatch_keys.count(key))
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
  std::vector<const SchemaArgument*> outs;
  for (const auto& a : s.arguments)
    if (is_out_argument(a)) outs.push_back(&a);
  const bool list_outs = std::any_of(outs.begin(), outs.end(), [](const SchemaArgument* a) { return type_text(*a) != "Tensor"; });
  const auto returned_outs = std::count_if(outs.begin(), outs.end(), [](const SchemaArgument* a) {
    return a->name.rfind("_scratch_", 0) != 0;  // scratch tensors are not returned
  });
  if (list_outs && !s.returns.empty())
    out.push_back(make_refusal(f, "out-list-returns",
                               "out= ops that accept tensor lists as out arguments are expected to have no return "
                               "type (since you can't do method chaining on them)"));
  else if (!list_outs && !outs.empty() && static_cast<size_t>(returned_outs) != s.returns.size())
    out.push_back(make_refusal(f, "out-return-count",
                               "Must return as many arguments as there are out arguments, or no return at all. Got " +
                                   std::to_string(returned_outs) + " non-scratch out args and " +
                                   std::to_string(s.returns.size()) + " returns"));
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

void check_function(const NativeFunction& f, const ReleaseRules& rules, std::vector<Refusal>& out) {
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
  const bool dropout_argument = rules.seeded_if_dropout_argument && std::any_of(f.func.arguments.begin(), f.func.arguments.end(), [](const SchemaArgument& a) {
    return a.name.find("dropout") != std::string::npos;
  });
  const bool dropout = (full.find("dropout") != std::string::npos || dropout_argument) &&
                       full.find("backward") == std::string::npos && base_name(f.func).base != "_cudnn_init_dropout_state";
  const bool generator = std::any_of(f.func.arguments.begin(), f.func.arguments.end(), [](const SchemaArgument& a) {
    const std::string type = type_text(a);
    return type == "Generator" || type == "Generator?";
  });
  if ((full.find("rand") != std::string::npos || dropout || generator) && !f.tags.count("nondeterministic_seeded"))
    out.push_back(make_refusal(f, "nondeterministic-seeded",
                               "nondeterministic_seeded tag missing for " + full +
                                   " (random: rand or dropout in its name, dropout in an argument's name, or a "
                                   "Generator argument)"));
}

}  // namespace

std::vector<Refusal> find_refusals(const TorchgenModel& model, const ReleaseRules& rules) {
  std::vector<Refusal> out = model.parse_refusals;
  for (const auto& f : model.functions) {
    if (f.generated) continue;
    check_dispatch(f, model, rules, out);
    check_schema(f, out);
    check_function(f, rules, out);
    check_entry_fields(f, rules, out);
  }
  const size_t read_entries = out.size();
  check_api(model, rules, out);  // FunctionSchema's and the C++ API's: before the groups, as torchgen.gen
  // What several checks read from the whole model, computed once here (each
  // check built its own: InfoMatcher and the grouping were ~15% of check --base).
  const ViewGroups views(model, rules);
  const InfoMatcher matcher(model);
  const std::vector<SignatureGroup> groups = group_by_signature(model.functions);
  std::vector<Refusal> functionalization;
  check_inplace_views(model, rules, out);  // the view grouping asserts first
  check_groups(model, rules, views, groups, out, functionalization);
  check_views(model, rules, views, out);
  check_derivatives(model, rules, matcher, out);
  check_more(model, rules, out);
  check_kernel_namespaces(model, rules, groups, out);  // torchgen.gen's declarations, after the groups
  check_ufunc_kernels(model, rules, groups, out);  // torchgen.gen's per-dispatch-key files, after the declarations
  for (size_t i = read_entries; i < out.size(); ++i) out[i].phase = 1;
  for (auto& r : functionalization) r.phase = 2;
  out.insert(out.end(), functionalization.begin(), functionalization.end());
  check_view_replay(model, rules, matcher, out);  // gen_autograd, after torchgen.gen
  check_returns(model, rules, out);  // the C++ API is written, then the Python bindings
  check_autograd(model, rules, matcher, out);
  check_autograd_more(model, rules, matcher, out);
  check_python_bindings(model, rules, out);  // gen_autograd_python, last
  check_deprecated(model, rules, out);  // its deprecated signatures
  std::stable_sort(out.begin(), out.end(), [](const Refusal& a, const Refusal& b) {
    return std::make_pair(a.loc.file, a.loc.line) < std::make_pair(b.loc.file, b.loc.line);
  });
  merge_same_cause(model, out);
  return out;
}

namespace {

// A refusal's stage is its kind's (refusals.h), and no earlier than the first
// stage that reads its file: torchgen.gen reads native_functions.yaml and
// tags.yaml only, gen_autograd derivatives.yaml, the Python bindings
// deprecated.yaml. So an illegal schema written both as a func: and as a
// derivatives.yaml name: is torchgen.gen's refusal of the func: (the thirteenth
// corpus' Dimname[]). derivative-no-function keeps its kind's rank (the
// deletion convention: refusal_kinds_autograd.cpp).
int refusal_stage(const Refusal& r) {
  const RefusalKind* kind = refusal_kind(r.id);
  const RefusalStage by_kind = kind ? kind->stage : RefusalStage::ReadingEntries;
  RefusalStage by_file = RefusalStage::ReadingEntries;
  // By the file's name, as dispatchctl's inputs name them (a shipped copy may be NAME.gz).
  const std::string file = std::filesystem::path(r.loc.file).filename().string();
  if (file.starts_with("deprecated.yaml")) by_file = RefusalStage::PythonBindings;
  if (file.starts_with("derivatives.yaml")) by_file = RefusalStage::Autograd;
  if (r.id == "derivative-no-function") by_file = RefusalStage::ReadingEntries;
  return static_cast<int>(std::max(by_kind, by_file));
}

}  // namespace

void refuse_if_any(const TorchgenModel& model, const ReleaseRules& rules) {
  const std::vector<Refusal> refusals = find_refusals(model, rules);
  if (refusals.empty()) return;
  // The one line names what torchgen stops at: the first refusal of the
  // earliest stage (a view_copy operator's missing tag before the formula that
  // reads its Tensor[] output) and, within torchgen.gen, of the earliest phase
  // (an out= whose return lost its annotation, refused as its entry is read,
  // before the in-place operator it leaves ungrouped), in YAML order within it.
  const auto first = std::min_element(refusals.begin(), refusals.end(), [](const Refusal& a, const Refusal& b) {
    return std::make_pair(refusal_stage(a), a.phase) < std::make_pair(refusal_stage(b), b.phase);
  });
  throw TorchgenRefusal(*first);
}

}  // namespace dispatchctl::torchgen
