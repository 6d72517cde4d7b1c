// More of model.py's and gen.py's asserts, read in torchgen 2.14.1's source
// (refusals_model2.h): ufunc_inner_loop entries and kernel namespaces.
#include "torchgen/refusals_model2.h"

#include <algorithm>
#include <map>
#include <set>

#include "registry/operator_name.h"
#include "torchgen/grouping.h"
#include "torchgen/python_split.h"
#include "torchgen/refusals_detail.h"

namespace dispatchctl::torchgen {
namespace {

std::string inner_loop_problem(const std::string& value, const ReleaseRules& rules) {
  std::string problem;
  for (const auto& dtype : inner_loop_dtypes(value, problem))
    if (!rules.ufunc_dtypes.count(dtype)) return "unknown dtype " + dtype;
  return problem;
}

std::string kernel_namespace(const std::string& kernel) {
  const size_t at = kernel.rfind("::");
  return at == std::string::npos ? "at" : kernel.substr(0, at);
}

size_t namespace_levels(const std::string& kernel) {
  size_t levels = 0;
  for (size_t at = kernel.find("::"); at != std::string::npos; at = kernel.find("::", at + 2)) ++levels;
  return levels;
}

// The C++ namespace of each of the operator's kernels in gen.py's backend
// indexes (the ufunc's CPU / CUDA kernels, the default CIA one and generated
// ones are at::native).
std::set<std::string> kernel_namespaces(const NativeFunction& f) {
  std::set<std::string> namespaces;
  for (const auto& [key, structured] : f.dispatch) {
    const auto kernel = f.kernel_names.find(key);
    namespaces.insert((kernel == f.kernel_names.end() ? std::string("at") : kernel_namespace(kernel->second)) +
                      "::native");
  }
  return namespaces;
}

}  // namespace

std::string precomputed_problem(const std::vector<std::string>& lines) {
  auto declared_name = [](std::string decl) {
    while (!decl.empty() && decl.front() == ' ') decl.erase(0, 1);
    while (!decl.empty() && decl.back() == ' ') decl.pop_back();
    return decl.substr(decl.rfind(' ') == std::string::npos ? 0 : decl.rfind(' ') + 1);
  };
  auto uppercase = [](const std::string& name) {
    for (char c : name)
      if (c >= 'a' && c <= 'z') return false;
    return true;
  };
  for (size_t i = 0; i < lines.size(); ++i) {
    const size_t arrow = lines[i].find(" -> ");
    if (arrow == std::string::npos && i + 1 != lines.size())
      return "precomputed parameters without replacement are allowed only in the last line, got: " + lines[i];
    const std::string arg = arrow == std::string::npos ? "" : lines[i].substr(0, arrow);
    if (arg.find(' ') != std::string::npos) return "illegal kernel param name '" + arg + "' in precomputed parameters";
    for (const auto& decl : python_split(arrow == std::string::npos ? lines[i] : lines[i].substr(arrow + 4), ","))
      if (const std::string name = declared_name(decl); uppercase(name))
        return "precomputed argument name must not be all uppercase: " + name;
  }
  return "";
}

std::string unrecognized_type(const FunctionSchema& schema, const ReleaseRules& rules) {
  if (rules.base_types.empty()) return "";  // not recorded for the release: not checked
  std::string found;
  auto visit = [&](const SchemaType& type, auto&& self) -> void {
    if (!found.empty()) return;
    if (type.kind == SchemaType::Kind::Named && !rules.base_types.count(type.name) &&
        type.name.rfind("__torch__.torch.classes.", 0) != 0)
      found = type.name;
    for (const auto& inner : type.contained) self(inner, self);
  };
  for (const auto& a : schema.arguments) visit(a.type, visit);
  for (const auto& r : schema.returns) visit(r.type, visit);
  return found;
}

std::vector<std::string> inner_loop_dtypes(const std::string& value, std::string& problem) {
  problem.clear();
  const size_t space = value.find(' ');
  if (space == std::string::npos) {  // `name, supported_dtypes_str = value.split(" ", 1)`
    problem = "ValueError: not enough values to unpack (expected 2, got 1) reading '" + value + "'";
    return {};
  }
  const std::string dtypes = value.substr(space + 1);
  if (dtypes.empty() || dtypes.front() != '(')
    problem = "expected '(' at start of supported_dtypes, got: " + dtypes;
  else if (dtypes.back() != ')')
    problem = "expected ')' at end of supported_dtypes, got: " + dtypes;
  if (!problem.empty()) return {};
  return python_split(dtypes.substr(1, dtypes.size() - 2), ", ");
}

std::string ufunc_inner_loop_problem(const std::vector<std::pair<std::string, std::string>>& entries,
                                     const ReleaseRules& rules) {
  if (rules.ufunc_inner_loop_keys.empty()) return "";  // not recorded for the release: not checked
  std::map<std::string, std::string> names;  // key -> the loop's name
  for (const auto& [key, value] : entries) {
    if (!key.empty() && !rules.ufunc_inner_loop_keys.count(key)) return "unknown ufunc key " + key;
    if (std::string problem = inner_loop_problem(value, rules); !problem.empty()) return problem;
    names[key.empty() ? "Generic" : key] = value.substr(0, value.find(' '));
  }
  // dest/ufunc.py compute_ufunc_cuda_functors (torchgen.gen): one CUDA functor name for both.
  if (names.count("ScalarOnly") && names.count("Generic") && names["ScalarOnly"] != names["Generic"])
    return "ScalarOnly and Generic must have same ufunc name (" + names["ScalarOnly"] + ", " + names["Generic"] + ")";
  return "";
}

void check_kernel_namespaces(const TorchgenModel& model, const ReleaseRules&,
                             const std::vector<SignatureGroup>& groups, std::vector<Refusal>& out) {
  for (const auto& f : model.functions) {
    if (f.generated) continue;
    for (const auto& [key, kernel] : f.kernel_names)
      if (namespace_levels(kernel) > 3) {
        out.push_back(make_refusal(f, "kernel-namespace",
                                   "Codegen doesn't support more than 3 level(s) of custom namespace. Got " +
                                       kernel_namespace(kernel) + " (" + key + ": " + kernel + ")"));
        break;
      }
  }
  // get_grouped_native_functions: a functional with its out= is one
  // NativeFunctionsGroup, whose primary for in-tree backends is the out=.
  for (const auto& group : groups) {
    for (const auto& [kind, index] : group.members) {
      if (group.is_full_group() && kind != SchemaKind::Out) continue;
      const NativeFunction& f = model.functions[index];
      if (f.generated) continue;
      const std::set<std::string> namespaces = kernel_namespaces(f);
      if (namespaces.size() <= 1) continue;
      std::string listed, keys;
      for (const auto& n : namespaces) listed += (listed.empty() ? "" : ", ") + n;
      for (const auto& [key, structured] : f.dispatch) keys += (keys.empty() ? "" : ", ") + key;
      out.push_back(make_refusal(f, "kernel-namespace",
                                 "Codegen only supports one namespace per operator, got {" + listed + "} from {" +
                                     keys + "} (" + f.name() + ")"));
    }
  }
}

void merge_same_cause(const TorchgenModel& model, std::vector<Refusal>& refusals) {
  const std::string marker = "structured_delegate pointing to ";
  std::map<std::string, size_t> first;  // missing delegate -> its first refusal
  std::set<std::string> delegating;        // the operators delegating to a missing one
  std::vector<Refusal> kept;
  for (auto& r : refusals) {
    const size_t at = r.reason.find(marker);
    if (r.id != "delegate-missing" || at == std::string::npos) {
      kept.push_back(std::move(r));
      continue;
    }
    delegating.insert(r.op);
    const std::string target = r.reason.substr(at + marker.size(), r.reason.find(',', at) - at - marker.size());
    const auto [it, fresh] = first.emplace(target, kept.size());
    if (fresh) {
      kept.push_back(std::move(r));
      continue;
    }
    Refusal& earlier = kept[it->second];
    const std::string name(without_namespace(r.op));
    const std::string also = " (" + name.substr(0, name.find('(')) + " delegates to it too)";
    earlier.reason += also;
  }
  // An in-place operator delegating to the missing out= is left outside every
  // group, which its delegate-missing refusal names already: not also
  // ungrouped-mutable (heaviside_ after heaviside.out is deleted: sixth corpus'
  // remove-delegated-out; torchgen stops at the missing delegate).
  std::erase_if(kept, [&](const Refusal& r) { return r.id == "ungrouped-mutable" && delegating.count(r.op); });
  // A formula and an out= that both name a functional no longer there (renamed,
  // or its schema changed: second corpus' index-select-op-deleted, eighth's
  // narrow-copy-int-start) are one cause: the formula's refusal names the out=
  // too, whose own advice (declare the functional) would mislead. They meet at
  // torchgen's signature(): the formula's schema and the out='s, out arguments
  // and overload name dropped, which is how pre_group would have paired them.
  std::map<std::string, size_t> formulas;  // an unmatched formula's signature -> its refusal
  for (size_t i = 0; i < kept.size(); ++i) {
    if (kept[i].id != "derivative-no-function") continue;
    for (const auto& info : model.derivatives)
      if (info.loc.file == kept[i].loc.file && info.loc.line == kept[i].loc.line)
        formulas.emplace(torchgen_text(signature(info.func)), i);
  }
  std::set<size_t> named;
  for (size_t i = 0; i < kept.size(); ++i) {
    if (kept[i].id != "lone-out") continue;
    const auto out = std::find_if(model.functions.begin(), model.functions.end(),
                                  [&](const NativeFunction& f) { return f.name() == without_namespace(kept[i].op); });
    if (out == model.functions.end()) continue;
    const auto formula = formulas.find(torchgen_text(signature(out->func)));
    if (formula == formulas.end()) continue;
    kept[formula->second].reason += " (and " + std::string(without_namespace(kept[i].op)) +
                                    ", its out= variant, has no functional of its signature now: "
                                    "torchgen.gen refuses it first, as a lone out=)";
    named.insert(i);
  }
  for (auto it = named.rbegin(); it != named.rend(); ++it) kept.erase(kept.begin() + static_cast<std::ptrdiff_t>(*it));
  refusals = std::move(kept);
}

}  // namespace dispatchctl::torchgen
