// Refusals of a schema that only torchgen's APIs raise, past FunctionSchema's
// own checks: the operator and overload names model.py reserves
// (BaseOperatorName.parse, FunctionSchema.__post_init__), TensorOptions on a
// non-functional operator, the returns the C++ API cannot type
// (api/cpp.py returntype_type) and those the Python bindings do not support
// (api/python.py dispatch_lambda_return_str, for the operators
// gen_python_functions binds).
#include <algorithm>
#include <map>
#include <regex>
#include <set>

#include "registry/schema_text.h"
#include "torchgen/info_matcher.h"
#include "torchgen/refusals_detail.h"

namespace dispatchctl::torchgen {
namespace {

// The returns as a schema spells them, without names or alias annotations:
// "Tensor", "(Tensor, float)", "()" (rules' python_return_types).
std::string returns_text(const FunctionSchema& s) {
  if (s.returns.size() == 1) return type_text(s.returns[0]);
  std::string text = "(";
  for (size_t i = 0; i < s.returns.size(); ++i) text += (i ? ", " : "") + type_text(s.returns[i]);
  return text + ")";
}

// api/cpp.py returntype_type: "" when the C++ API can type every return.
std::string untyped_return(const FunctionSchema& s) {
  for (const auto& r : s.returns) {
    // (returned neither as self nor as an out= argument FunctionSchema refuses it
    // first: mutable-return-alias; an in-place one, inplace-self)
    const bool aliased = std::any_of(s.arguments.begin(), s.arguments.end(), [&](const SchemaArgument& a) {
      return a.alias == r.alias && (a.name == "self" || a.kwarg_only);
    });
    if (r.type.kind == SchemaType::Kind::List && r.is_write() && aliased && !base_name(s).inplace)
      return "Native functions should never return a mutable tensor list. They should return void.";
    if (r.size) return "fixed size list returns not supported: " + type_text(r);
    if (r.type.kind == SchemaType::Kind::Optional && !(r.type.contained.size() == 1 &&
                                                       r.type.contained[0].kind == SchemaType::Kind::Named &&
                                                       r.type.contained[0].name == "Tensor"))
      return "unrecognized return type " + type_text(r);
  }
  return "";
}


}  // namespace

// gen_python_functions should_generate_py_binding (refusals_detail.h).
bool PythonBindings::binds(const NativeFunction& f) {
  if (f.tags.count("generated") && !f.tags.count("view_copy")) return false;
  if (rules_.python_skipped_signatures.count(torchgen_text(f.func))) return false;
  if (skipped_.empty())  // compiled when first needed: most YAML never asks
    for (const auto& pattern : rules_.python_skipped_bindings) skipped_.emplace_back(pattern);
  const std::string name = cpp_name(f.func);
  return std::none_of(skipped_.begin(), skipped_.end(), [&](const std::regex& r) { return std::regex_match(name, r); });
}

void check_api(const TorchgenModel& model, const ReleaseRules&, std::vector<Refusal>& out) {
  for (const auto& f : model.functions) {
    if (f.generated) continue;
    const FunctionSchema& s = f.func;
    const std::string_view name = unqualified_name(s);
    // api/translate.py: no binding yields a `::std::optional<at::Tensor> &` (the seventh corpus).
    for (const auto& a : s.arguments)
      if (a.is_write() && a.type.kind == SchemaType::Kind::Optional &&
          a.type.contained[0].kind == SchemaType::Kind::Named && a.type.contained[0].name == "Tensor") {
        out.push_back(make_refusal(f, "mutable-optional-tensor",
                                   "Failed to synthesize the expression \"::std::optional<at::Tensor> & " + a.name +
                                       "\" (the mutable optional Tensor argument " + a.name + " of " + f.name() + ")"));
        break;
      }
    if (name.ends_with("_out"))
      out.push_back(make_refusal(f, "reserved-operator-name",
                                 "_out suffix is reserved and not permitted for operator names; did you mean to "
                                 "specify an out overload name instead? (" + std::string(name) + ")"));
    const SchemaKind kind = schema_kind(s);
    if (s.overload_name.find("functional") != std::string::npos && kind != SchemaKind::Functional)
      out.push_back(make_refusal(f, "reserved-operator-name",
                                 "Found an operator that is not functional, but its overload contains the string "
                                 "'functional'. This is a special keyword in the codegen, please use a different "
                                 "overload name. schema: " + torchgen_text(s)));
    if (has_tensor_options(s) && kind != SchemaKind::Functional)
      out.push_back(make_refusal(f, "tensor-options-not-functional",
                                 "Found an operator that is not functional or out variant, but has tensor options "
                                 "arguments. This is not allowed- tensor options arguments are only allowed for "
                                 "factory functions. schema: " + torchgen_text(s)));
  }
}

namespace {

// A Python signature without its outputs, near enough: the module and the
// non-out arguments as torchgen's signature() keeps them (names, types,
// defaults; TensorOptions dropped).
std::string python_key(const NativeFunction& f) {
  const FunctionSchema sig = signature(f.func);
  std::string key = f.python_module.value_or("") + " " + std::string(unqualified_name(f.func)) + "(";
  for (const auto& a : sig.arguments) key += type_text(a) + " " + a.name + "=" + a.default_value.value_or("") + ",";
  return key;
}

}  // namespace

void check_returns(const TorchgenModel& model, const ReleaseRules& rules, std::vector<Refusal>& out) {
  PythonBindings bindings(rules);
  // gen_python_functions group_overloads: every out= operator the bindings
  // bind needs a non-out one of its Python signature in the same binding file
  // (torch's functions, or its python_module's). torchgen.gen refuses the
  // others without a functional variant first (lone-out, ungrouped-mutable):
  // only CompositeImplicitAutograd ones, or those whose functional variant is
  // in another python_module (a typo'd one is bound nowhere), get this far.
  auto bound_in = [&](const NativeFunction& f) {  // "" : bound in no file
    if (!f.python_module) return f.variants.count("function") ? std::string("torch") : std::string();
    return rules.python_binding_modules.count(*f.python_module) ? *f.python_module : std::string();
  };
  std::set<std::string> functionals;  // the signatures torchgen.gen groups an out= with
  std::map<std::string, int> members;  // and how many operators share each
  for (const auto& f : model.functions) {
    if (schema_kind(f.func) == SchemaKind::Functional) functionals.insert(torchgen_text(signature(f.func)));
    ++members[torchgen_text(signature(f.func))];
  }
  // An out= beside an in-place operator and no functional: torchgen.gen refuses
  // their group first (functional-required names them both: cia-inplace-and-out).
  auto checked = [&](const NativeFunction& f) {
    const std::string sig = torchgen_text(signature(f.func));
    return is_out_fn(f.func) && !bound_in(f).empty() && (functionals.count(sig) || (f.has_cia() && members[sig] < 2));
  };
  std::set<std::string> names, python_bases;  // only the names of those out= operators: few
  for (const auto& f : model.functions)
    if (checked(f)) names.insert(std::string(unqualified_name(f.func)));
  for (const auto& f : model.functions)
    if (!is_out_fn(f.func) && !bound_in(f).empty() && names.count(std::string(unqualified_name(f.func))))
      python_bases.insert(python_key(f));  // bound or not
  for (const auto& f : model.functions) {
    if (f.generated) continue;
    // (Where the release's skipped bindings are not recorded, not checked.)
    if (!rules.python_skipped_bindings.empty() && checked(f) && !python_bases.count(python_key(f)) && bindings.binds(f)) {
      Refusal r = make_refusal(f, "python-out-without-functional",
                               "While identifying overloads, we found an out schema " + torchgen_text(f.func) +
                                   " without a corresponding non-out variant (its Python binding" +
                                   (f.python_module ? " in torch." + *f.python_module : std::string()) + ")");
      r.fix = "declare the functional variant `- func: " + torchgen_text(signature(f.func)) + "` beside it" +
              (f.python_module ? " with `python_module: " + *f.python_module + "`" : std::string());
      const std::string sig = torchgen_text(signature(f.func));
      for (const auto& other : model.functions)  // the functional is there, bound elsewhere (or nowhere)
        if (schema_kind(other.func) == SchemaKind::Functional && torchgen_text(signature(other.func)) == sig) {
          r.fix = "give " + other.name() + " the python_module of " + f.name() + " (" +
                  (f.python_module ? "python_module: " + *f.python_module : "none") + "; it has " +
                  (other.python_module ? "python_module: " + *other.python_module : "none") + ")";
          if (bound_in(other).empty()) r.loc = other.loc;  // a module no file binds: the typo is there
        }
      out.push_back(std::move(r));
      continue;
    }
    if (const std::string why = untyped_return(f.func); !why.empty()) {
      out.push_back(make_refusal(f, "return-type", why + " (" + f.name() + ")"));
      continue;  // the Python bindings are generated later: one finding
    }
    if (rules.python_return_types.empty()) continue;
    // The regexes only for the rare unsupported return.
    if (const std::string returns = returns_text(f.func); !rules.python_return_types.count(returns) && bindings.binds(f))
      out.push_back(make_refusal(f, "python-return-type",
                                 f.name() + " returns unsupported type " + returns + " (its Python binding)"));
  }
}

}  // namespace dispatchctl::torchgen
