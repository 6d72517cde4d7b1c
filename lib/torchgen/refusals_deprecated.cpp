// What the Python bindings' generator (gen_autograd_python) refuses in
// tools/autograd/deprecated.yaml, read against the operators it binds
// (tools/autograd/gen_python_functions.py load_deprecated_signatures, then
// group_overloads on the deprecated signatures it made):
//   an `aten:` call split_name_params cannot read, or passing a name that is
//     not an argument of the entry's `name:` schema (nor the constant 1);
//   no bound operator of the call's name (an `_out` suffix dropped) whose
//     arguments, in the call's order (out= ones first for an _out call), have
//     the types and alias annotations of what the call passes, the others a
//     default, and whose returns are the entry's;
//   one deprecated signature joined with two operators of one binding file,
//     or an out= one without the deprecated signature of its non-out variant.
// A native_functions.yaml edit breaks an entry too: an operator deleted, or
// its arguments' types, order, defaults or returns changed.
#include <algorithm>
#include <map>
#include <regex>
#include <set>

#include "torchgen/python_split.h"
#include "torchgen/refusals_detail.h"
#include "util/suggest.h"

namespace dispatchctl::torchgen {
namespace {

Refusal deprecated_refusal(const DeprecatedSignature& d, std::string_view id, std::string reason) {
  return {d.loc, "", std::string(id), std::move(reason), std::string(kind_fix(id))};
}

const SchemaArgument* argument_named(const FunctionSchema& s, const std::string& name) {
  for (const auto& a : s.arguments)
    if (a.name == name) return &a;
  return nullptr;
}

// Arguments.flat_all (the out= ones last), or the out= ones first for an _out call.
std::vector<const SchemaArgument*> call_order(const FunctionSchema& s, bool out_first) {
  std::vector<const SchemaArgument*> outs, others;
  for (const auto& a : s.arguments) (is_out_argument(a) ? outs : others).push_back(&a);
  std::vector<const SchemaArgument*> all = out_first ? outs : others;
  const auto& rest = out_first ? others : outs;
  all.insert(all.end(), rest.begin(), rest.end());
  return all;
}

struct Call {
  std::string name;  // the operator's Python name: "addmm", "addmm_"
  bool out = false;
  std::vector<std::string> args;
};

// is_schema_compatible: "" when `aten` takes the call, else why not.
std::string incompatibility(const DeprecatedSignature& d, const Call& call, const FunctionSchema& aten) {
  const std::vector<const SchemaArgument*> args = call_order(aten, call.out);
  for (size_t i = 0; i < args.size(); ++i) {
    const SchemaArgument& arg = *args[i];
    if (i >= call.args.size()) {
      if (!arg.default_value) return "its argument " + arg.name + " has no default and the call does not pass it";
      continue;
    }
    const SchemaArgument* passed = argument_named(d.func, call.args[i]);  // nullptr: the constant 1, a Scalar
    const std::string type = passed ? type_text(passed->type, passed->size) : "Scalar";
    const std::string alias = passed ? passed->alias : "";
    if (type != type_text(arg.type, arg.size) || alias != arg.alias)
      return "its argument " + arg.name + " is " + annotated_type_text(arg) + " where the call passes " + call.args[i] +
             " (" + (passed ? annotated_type_text(*passed) : "Scalar") + ")";
  }
  bool same = d.func.returns.size() == aten.returns.size();
  for (size_t i = 0; same && i < aten.returns.size(); ++i) {
    const SchemaArgument &a = d.func.returns[i], &b = aten.returns[i];
    same = a.name == b.name && annotated_type_text(a) == annotated_type_text(b);
  }
  const std::string text = torchgen_text(aten);
  return same ? "" : "it returns " + text.substr(text.rfind(" -> ") + 4);
}

struct Joined {
  const DeprecatedSignature* entry;
  const NativeFunction* function;
  std::string call_without_out;  // "addmm(self, mat1, mat2, beta, 1)" for addmm_out(out, self, …)
};

// group_overloads over the deprecated signatures of each binding file's name:
// they only meet each other (signature_str ends in "|deprecated").
void check_deprecated_overloads(const std::vector<Joined>& joined, std::vector<Refusal>& out) {
  struct Seen {
    std::map<std::string, Joined> bases, outs;
  };
  std::map<std::string, Seen> groups;  // "GROUP NAME" (the operator's name) -> its signatures
  std::set<const DeprecatedSignature*> refused;
  for (const Joined& j : joined)
    for (const std::string& group : python_groups(*j.function)) {
      Seen& seen = groups[group + " " + std::string(unqualified_name(j.function->func))];
      const std::string sig = python_signature(j.entry->func, group == "method");
      auto& kept = is_out_fn(j.function->func) ? seen.outs : seen.bases;
      const auto [it, fresh] = kept.emplace(sig, j);
      if (fresh || !refused.insert(j.entry).second) continue;
      const Joined& first = it->second;
      Refusal r = deprecated_refusal(*j.entry, "deprecated-overloads",
                                     "Found duplicated function definition: " + torchgen_text(j.function->func) +
                                         ". Existing definition: " + torchgen_text(first.function->func) +
                                         " (the deprecated signature " + torchgen_text(j.entry->func) +
                                         " is joined with both)");
      if (first.entry == j.entry) {  // two operators take the call: the later one is the new one
        r.loc = std::max(first.function->loc.line, j.function->loc.line) == j.function->loc.line ? j.function->loc
                                                                                               : first.function->loc;
        r.op = (r.loc.line == j.function->loc.line ? j.function : first.function)->func.full_name();
        r.fix = "tell " + j.function->name() + " and " + first.function->name() + " apart for the deprecated call `" +
                j.entry->aten + "`: give the new one an argument without a default, or other types in the call's order";
      } else {
        r.fix = "delete one of the two deprecated.yaml entries (lines " + std::to_string(first.entry->loc.line) +
                " and " + std::to_string(j.entry->loc.line) + ")";
      }
      out.push_back(std::move(r));
    }
  for (const auto& [name, seen] : groups)
    for (const auto& [sig, j] : seen.outs)
      if (!seen.bases.count(sig) && refused.insert(j.entry).second) {
        Refusal r = deprecated_refusal(*j.entry, "deprecated-overloads",
                                       "While identifying overloads, we found an out schema " + torchgen_text(j.entry->func) +
                                           "|deprecated without a corresponding non-out variant");
        FunctionSchema functional = j.entry->func;
        functional.arguments.erase(std::remove_if(functional.arguments.begin(), functional.arguments.end(),
                                                  [](const SchemaArgument& a) { return is_out_argument(a); }),
                                   functional.arguments.end());
        for (auto& ret : functional.returns) ret.alias.clear();
        r.fix = "add its non-out deprecated signature (`- name: " + torchgen_text(functional) + "` with `aten: " +
                j.call_without_out + "`), or delete this entry";
        out.push_back(std::move(r));
      }
}

}  // namespace

void check_deprecated(const TorchgenModel& model, const ReleaseRules& rules, std::vector<Refusal>& out) {
  if (model.deprecated.empty() || rules.python_skipped_bindings.empty()) return;  // bindings not recorded
  PythonBindings bindings(rules);
  std::map<std::string, std::vector<const NativeFunction*>> by_name;  // PythonSignature.name: "addmm", "addmm_"
  for (const auto& f : model.functions) by_name[std::string(unqualified_name(f.func))].push_back(&f);
  // split_name_params: re.match(r"(\w+)(\.\w+)?\((.*)\)"), the parameters split on ", ".
  static const std::regex call_syntax(R"(^(\w+)(\.\w+)?\((.*)\))");
  std::vector<Joined> joined;
  const size_t before = out.size();
  // A deleted (or renamed) operator breaks each entry calling it: one finding,
  // at the first, naming the others' lines.
  std::map<std::string, std::pair<size_t, std::string>> missing, unfit;
  for (const DeprecatedSignature& d : model.deprecated) {
    std::smatch m;
    if (!std::regex_search(d.aten, m, call_syntax)) {
      Refusal r = deprecated_refusal(d, "deprecated-call", "Unsupported function schema: " + d.aten);
      r.fix = "write the call as `NAME(a, b)`: the operator's name (no namespace: not at::, torch.) and the "
              "arguments of the `name:` schema it passes";
      out.push_back(std::move(r));
      continue;
    }
    Call call{m[1].str(), false, python_split(m[3].str(), ", ")};
    call.out = call.name.ends_with("_out");
    for (size_t at; call.out && (at = call.name.find("_out")) != std::string::npos;) call.name.erase(at, 4);
    std::vector<std::string_view> names;
    for (const auto& a : d.func.arguments) names.push_back(a.name);
    const auto unknown = std::find_if(call.args.begin(), call.args.end(), [&](const std::string& a) {
      return a != "1" && !argument_named(d.func, a);
    });
    if (unknown != call.args.end()) {
      Refusal r = deprecated_refusal(d, "deprecated-call", "deprecation definition: Unrecognized value " + *unknown +
                                                               " (in `aten: " + d.aten + "`)");
      r.fix = "pass only arguments of the `name:` schema (or the constant 1), written `NAME(a, b)` with \", \" between "
              "them" + did_you_mean(*unknown, names);
      out.push_back(std::move(r));
      continue;
    }
    std::string nearest;  // why the nearest operator of the name does not take the call
    const NativeFunction* near = nullptr;
    size_t found = 0;
    for (const NativeFunction* f : by_name[call.name]) {
      if (!bindings.binds(*f)) continue;
      const std::string why = incompatibility(d, call, f->func);
      if (why.empty()) {
        std::string without_out = call.name + "(";
        for (const auto& a : call.args)
          if (const SchemaArgument* passed = argument_named(d.func, a); !passed || !is_out_argument(*passed))
            without_out += (without_out.ends_with("(") ? "" : ", ") + a;
        joined.push_back({&d, f, without_out + ")"});
        ++found;
      } else if (!near || (is_out_fn(near->func) != call.out && is_out_fn(f->func) == call.out)) {
        near = f, nearest = why;  // the first of the call's kind (out= or not)
      }
    }
    if (found) continue;
    Refusal r = deprecated_refusal(d, "deprecated-no-match", "No native function with name " + call.name +
                                                                 " matched signature: " + torchgen_text(d.func));
    if (near) {
      // One change of the operator (beta's type, a default dropped) breaks each entry calling
      // it alike: one refusal, at the first, naming the others' lines.
      const auto [it, fresh] =
          unfit.emplace(near->name() + ": " + nearest, std::make_pair(out.size(), std::string()));
      if (!fresh) {
        it->second.second += (it->second.second.empty() ? "" : ", ") + std::to_string(d.loc.line);
        continue;
      }
      r.reason += " (" + near->name() + ": " + nearest + ")";
      r.fix = "make the entry fit " + near->name() + " (the `name:` schema's types, alias annotations and returns in "
              "the order of `aten: " + d.aten + "`; what the call does not pass needs a default in " + near->name() +
              "), or restore " + near->name() + ", or delete the entry";
    } else {
      const auto [it, fresh] = missing.emplace(call.name, std::make_pair(out.size(), std::string()));
      if (!fresh) {
        it->second.second += (it->second.second.empty() ? "" : ", ") + std::to_string(d.loc.line);
        continue;
      }
      r.fix = "keep (or restore) the operator " + call.name + ", or delete the deprecated.yaml entries calling it";
    }
    out.push_back(std::move(r));
  }
  for (const auto& [name, at] : missing)
    out[at.first].reason += " (no operator the Python bindings bind is named " + name +
                            (at.second.empty() ? "" : "; the entries at lines " + at.second + " call it too") + ")";
  for (const auto& [why, at] : unfit)
    if (!at.second.empty())
      out[at.first].reason += at.second.find(',') == std::string::npos
                                  ? " (nor does the entry at line " + at.second + ", for the same reason)"
                                  : " (nor do the entries at lines " + at.second + ", for the same reason)";
  // load_deprecated_signatures raised: group_overloads is never reached (its
  // out= entries left without their non-out one are that refusal's cascade).
  if (out.size() == before) check_deprecated_overloads(joined, out);
}

}  // namespace dispatchctl::torchgen
