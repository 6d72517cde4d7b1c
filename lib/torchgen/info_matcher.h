// tools/autograd's match_differentiability_info: which derivatives.yaml entry
// an operator takes its formulas from (predict_autograd, refusals).
#pragma once

#include <algorithm>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "registry/operator_name.h"
#include "torchgen/model.h"
#include "torchgen/release_rules.h"

namespace dispatchctl::torchgen {

// A derivatives.yaml key's names ("self, other" -> {"self", "other"}), each
// trimmed of spaces, as load_derivatives' split_names reads them.
inline std::vector<std::string> split_formula_names(const std::string& key) {
  std::vector<std::string> names;
  size_t start = 0;
  while (start <= key.size()) {
    size_t comma = key.find(',', start);
    if (comma == std::string::npos) comma = key.size();
    std::string name = key.substr(start, comma - start);
    name.erase(0, name.find_first_not_of(' '));
    name.erase(name.find_last_not_of(' ') + 1);
    names.push_back(name);
    start = comma + 1;
  }
  return names;
}

// cpp.name(): the base name, "_out" for out= (and scratch) ops.
inline std::string cpp_name(const FunctionSchema& s) {
  return std::string(unqualified_name(s)) + (is_out_fn(s) ? "_out" : "");
}

inline bool is_foreach(const NativeFunction& f) { return unqualified_name(f.func).starts_with("_foreach_"); }

// match_differentiability_info, plus load_derivatives' view_copy infos.
class InfoMatcher {
 public:
  explicit InfoMatcher(const TorchgenModel& model) {
    std::unordered_map<std::string, const NativeFunction*> by_name;
    std::vector<std::pair<const FunctionSchema*, const DifferentiabilityInfo*>> copies;
    for (const auto& f : model.functions) by_name[f.name()] = &f;
    for (const auto& info : model.derivatives) {
      const std::string name = op_name(info.func);
      auto view = by_name.find(name);
      if (view == by_name.end()) continue;
      const FunctionSchema& v = view->second->func;
      auto copy = by_name.find(view_copy_name(op_name(v)));
      if (copy == by_name.end() || !copy->second->tags.count("view_copy")) continue;
      copies.emplace_back(&copy->second->func, &info);
    }
    const CanonicalFunctions canonical_functions = canonical_index(model);
    for (const auto& info : model.derivatives) index(canonical(canonical_functions, info.func), &info);
    for (const auto& [schema, info] : copies)
      if (!by_schema_.count(torchgen_text(*schema))) index(*schema, info);  // a written formula wins
  }

  const DifferentiabilityInfo* find(const NativeFunction& f) const {
    const bool generated = f.tags.count("generated") != 0;
    if (generated && schema_kind(f.func) == SchemaKind::Out) return nullptr;
    if (auto it = by_schema_.find(torchgen_text(f.func)); it != by_schema_.end()) return it->second;
    const std::string sig = torchgen_text(signature(f.func, true));
    if (auto it = functional_.find(sig); it != functional_.end() && !is_foreach(f)) return it->second;
    if (auto it = non_functional_.find(sig); generated && it != non_functional_.end()) return it->second;
    return nullptr;
  }

 private:
  void index(const FunctionSchema& schema, const DifferentiabilityInfo* info) {
    by_schema_[torchgen_text(schema)] = info;
    auto& by_signature = schema_kind(schema) == SchemaKind::Functional ? functional_ : non_functional_;
    by_signature[torchgen_text(signature(schema, true))] = info;
  }

  // create_differentiability_info's canonical_function: an entry written for an
  // out= (or other) variant is the formula of its signature group's operator named
  // as the entry (split_name_params drops the overload): `- name: foo.out(...)` is
  // foo's formula, `- name: foo_(...)` foo_'s. Not an overload naming `functional`.
  // Keyed by base name and signature text, computed once per model (the first
  // operator of a key wins, in YAML order).
  using CanonicalFunctions = std::unordered_map<std::string, const FunctionSchema*>;
  static std::string canonical_key(std::string_view name, const FunctionSchema& s) {
    return std::string(name) + '|' + torchgen_text(signature(s));
  }
  static CanonicalFunctions canonical_index(const TorchgenModel& model) {
    CanonicalFunctions index;
    for (const auto& f : model.functions)
      if (schema_kind(f.func) != SchemaKind::Out && f.func.overload_name.find("functional") == std::string::npos)
        index.emplace(canonical_key(base_name(f.func).to_string(), f.func), &f.func);
    return index;
  }
  static const FunctionSchema& canonical(const CanonicalFunctions& index, const FunctionSchema& written) {
    // "foo_" for foo_, as split_name_params reads it.
    const auto found = index.find(canonical_key(unqualified_name(written), written));
    return found == index.end() ? written : *found->second;
  }

  std::map<std::string, const DifferentiabilityInfo*> by_schema_;
  std::map<std::string, const DifferentiabilityInfo*> functional_, non_functional_;
};

// is_reference_for_foreach: the non-foreach functional op a _foreach_ op derives its formula from.
inline bool is_reference_for_foreach(const FunctionSchema& foreach_op, const FunctionSchema& ref, bool inplace_ref) {
  const BaseOperatorName ref_name = base_name(ref);
  if (base_name(foreach_op).base.substr(std::string("_foreach_").size()) != ref_name.base) return false;
  if (ref_name.inplace && !inplace_ref) return false;
  const size_t n = std::min(foreach_op.arguments.size(), ref.arguments.size());
  for (size_t i = 0; i < n; ++i) {
    const SchemaArgument &a = foreach_op.arguments[i], &r = ref.arguments[i];
    if (is_out_argument(a) || is_out_argument(r)) break;
    // The same type, or the element type of the foreach op's list ("Tensor[]" and "Tensor").
    const bool same = r.type == a.type && r.size == a.size;
    const bool element = a.type.kind == SchemaType::Kind::List && !a.size && !r.size && r.type == a.type.contained[0];
    if (!same && !element) return false;
  }
  return true;
}


// gen_foreach_derivativeinfo: a _foreach_ op derives its info from its reference op's
// formula (_foreach_zero_ takes zero_'s: _foreach_with_inplace_ref).
inline const DifferentiabilityInfo* foreach_reference(const NativeFunction& f, const TorchgenModel& model,
                                                      const ReleaseRules& rules) {
  const bool inplace_ref = rules.foreach_with_inplace_ref.count(f.name()) != 0;
  for (const auto& d : model.derivatives) {
    const SchemaKind kind = schema_kind(d.func);
    const bool kind_ok = kind == SchemaKind::Functional || (inplace_ref && kind == SchemaKind::Inplace);
    if (kind_ok && d.keys.count("Default") && is_reference_for_foreach(f.func, d.func, inplace_ref)) return &d;
  }
  return nullptr;
}

inline bool has_foreach_reference(const NativeFunction& f, const TorchgenModel& model, const ReleaseRules& rules) {
  return foreach_reference(f, model, rules) != nullptr;
}

}  // namespace dispatchctl::torchgen
