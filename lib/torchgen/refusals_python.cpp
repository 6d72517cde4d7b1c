// What the Python bindings' generator (gen_autograd_python:
// tools/autograd/gen_python_functions.py, torchgen/api/python.py) refuses in
// the operators it binds, past the returns refusals_api.cpp checks (the fifth
// corpus, tests/torchgen_corpus/edits-fifth.json):
//   group_overloads: two overloads of one name whose Python signatures (the
//     arguments without the out= ones: types, names, defaults; not the
//     returns) are the same;
//   signature_from_schema: an argument named requires_grad;
//   structseq_fieldnames: several returns, some named and some not;
//   arg_parser_unpack_method: an argument type PythonArgParser cannot read;
// and the one argument type the C++ API refuses first (api/cpp.py
// valuetype_type, torchgen.gen): a bool list without a size.
#include <algorithm>
#include <map>
#include <set>

#include "torchgen/info_matcher.h"
#include "torchgen/refusals_detail.h"

namespace dispatchctl::torchgen {
namespace {

// PythonArgument.argument_str near enough: the type without its alias
// annotation, the name, the default as written.
std::string python_argument(const SchemaArgument& a) {
  return type_text(a.type, a.size) + " " + a.name + (a.default_value ? "=" + *a.default_value : "");
}

}  // namespace

// PythonSignature.signature_str(skip_outputs=True): `self` left out of a method's.
std::string python_signature(const FunctionSchema& s, bool method) {
  std::string text = std::string(unqualified_name(s)) + "(";
  bool star = false;
  for (const auto& a : s.arguments) {
    if (is_out_argument(a) || (method && a.name == "self" && !a.kwarg_only)) continue;
    if (a.kwarg_only && !star) text += "*, ";
    star = star || a.kwarg_only;
    text += python_argument(a) + ", ";
  }
  return text + ")";
}

// gen_python_functions' groups: Tensor methods, then torch.* (or the
// operator's python_module) functions; each groups overloads by name.
std::vector<std::string> python_groups(const NativeFunction& f) {
  std::vector<std::string> groups;
  if (!f.python_module && f.variants.count("method")) groups.push_back("method");
  if (f.python_module)
    groups.push_back(*f.python_module);
  else if (f.variants.count("function"))
    groups.push_back("torch");
  return groups;
}

namespace {

// arg_parser_unpack_method: the types PythonArgParser reads (the optional of
// each too, and Generator? but not Generator).
bool parser_reads(const SchemaType& t, const std::optional<int>& size) {
  static const std::set<std::string> named = {"Tensor", "Stream", "Storage", "Scalar", "ScalarType", "Device",
                                              "DeviceIndex", "int", "SymInt", "bool", "float", "str", "Layout",
                                              "MemoryFormat"};
  static const std::set<std::string> elements = {"Tensor", "int", "float", "SymInt", "Scalar"};
  switch (t.kind) {
    case SchemaType::Kind::Named:
      return !size && named.count(t.name);
    case SchemaType::Kind::Optional: {
      const SchemaType& e = t.contained[0];
      if (e.kind == SchemaType::Kind::Named && e.name == "Generator") return true;
      return parser_reads(e, size);
    }
    case SchemaType::Kind::List: {
      const SchemaType& e = t.contained[0];
      if (e.kind == SchemaType::Kind::Optional)  // Tensor?[]
        return e.contained[0].kind == SchemaType::Kind::Named && e.contained[0].name == "Tensor";
      return e.kind == SchemaType::Kind::Named && elements.count(e.name);
    }
    default:
      return false;
  }
}

}  // namespace

void check_python_bindings(const TorchgenModel& model, const ReleaseRules& rules, std::vector<Refusal>& out) {
  for (const auto& f : model.functions)
    for (const auto& a : f.func.arguments)
      if (!f.generated && a.type.kind == SchemaType::Kind::List && !a.size &&
          a.type.contained[0].kind == SchemaType::Kind::Named && a.type.contained[0].name == "bool") {
        out.push_back(make_refusal(f, "bool-list-without-size",
                                   "bool ListType must have a size (argument " + a.name + " of " + f.name() +
                                       ": its C++ type is std::array<bool, N>)"));
        break;
      }
  if (rules.python_skipped_bindings.empty()) return;  // the release's bindings not recorded
  PythonBindings bindings(rules);  // its regexes only for operators with a problem: few
  std::map<std::string, std::vector<const NativeFunction*>> by_signature;  // group, out= or not, signature
  for (const auto& f : model.functions) {
    const FunctionSchema& s = f.func;
    if (f.generated && !f.tags.count("view_copy")) continue;  // not bound
    const bool requires_grad =
        std::any_of(s.arguments.begin(), s.arguments.end(), [](const auto& a) { return a.name == "requires_grad"; });
    const size_t named = std::count_if(s.returns.begin(), s.returns.end(), [](const auto& r) { return !r.name.empty(); });
    const bool half_named = s.returns.size() > 1 && named && named != s.returns.size();
    const auto unread = std::find_if(s.arguments.begin(), s.arguments.end(),
                                     [](const auto& a) { return !parser_reads(a.type, a.size); });
    if (requires_grad && bindings.binds(f)) {
      out.push_back(make_refusal(f, "python-argument-requires-grad",
                                 "argument named requires_grad is reserved, should not explicitly add it in the "
                                 "schema (" + f.name() + ", its Python binding)"));
    } else if (half_named && bindings.binds(f)) {
      out.push_back(make_refusal(f, "python-unnamed-return",
                                 "Unnamed field is not supported by codegen (" + f.name() + " names some of its "
                                 "returns, not all: its Python binding's named tuple)"));
    } else if (unread != s.arguments.end() && bindings.binds(f)) {
      out.push_back(make_refusal(f, "python-argument-type",
                                 "type '" + type_text(unread->type, unread->size) + "' is not supported by "
                                 "PythonArgParser (argument " + unread->name + " of " + f.name() + ", its Python "
                                 "binding)"));
    } else {
      for (const auto& group : python_groups(f))
        by_signature[group + (is_out_fn(s) ? " out " : " ") + python_signature(s, group == "method")].push_back(&f);
    }
  }
  // group_overloads: the second of two bound overloads with one signature, in YAML order.
  std::set<const NativeFunction*> refused;
  for (const auto& [key, overloads] : by_signature) {
    if (overloads.size() < 2) continue;
    const NativeFunction* first = nullptr;
    for (const NativeFunction* f : overloads) {
      if (!bindings.binds(*f)) continue;
      if (!first) {
        first = f;
        continue;
      }
      if (!refused.insert(f).second) break;  // one finding, in its first group
      Refusal r = make_refusal(*f, "python-duplicate-signature",
                               "Found duplicated function definition: " + torchgen_text(f->func) +
                                   ". Existing definition: " + torchgen_text(first->func) +
                                   " (the same Python arguments; returns do not count)");
      r.fix = "give " + f->name() + " arguments that tell it apart from " + first->name() +
              " in Python (another name, or a keyword-only argument without a default), or delete one of them";
      out.push_back(std::move(r));
      break;
    }
  }
}

}  // namespace dispatchctl::torchgen
