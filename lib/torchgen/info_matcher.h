// tools/autograd's match_differentiability_info: which derivatives.yaml entry
// an operator takes its formulas from (predict_autograd, refusals).
#pragma once

#include <algorithm>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "torchgen/model.h"
#include "torchgen/release_rules.h"

namespace dispatchctl::torchgen {

// cpp.name(): the base name, "_out" for out= (and scratch) ops.
inline std::string cpp_name(const FunctionSchema& s) { return s.name.to_string() + (s.has_out() ? "_out" : ""); }

inline bool is_foreach(const NativeFunction& f) { return f.func.name.base.rfind("_foreach_", 0) == 0; }

// match_differentiability_info, plus load_derivatives' view_copy infos.
class InfoMatcher {
 public:
  explicit InfoMatcher(const TorchgenModel& model) {
    std::unordered_map<std::string, const NativeFunction*> by_name;
    std::vector<std::pair<const FunctionSchema*, const DifferentiabilityInfo*>> copies;
    for (const auto& f : model.functions) by_name[f.name()] = &f;
    for (const auto& info : model.derivatives) {
      const std::string name = info.func.op_name();
      auto view = by_name.find(name);
      if (view == by_name.end()) continue;
      const FunctionSchema& v = view->second->func;
      auto copy = by_name.find(v.name.to_string() + "_copy" + (v.overload.empty() ? "" : "." + v.overload));
      if (copy == by_name.end() || !copy->second->tags.count("view_copy")) continue;
      copies.emplace_back(&copy->second->func, &info);
    }
    for (const auto& info : model.derivatives) index(info.func, &info);
    for (const auto& [schema, info] : copies)
      if (!by_schema_.count(schema->to_string())) index(*schema, info);  // a written formula wins
  }

  const DifferentiabilityInfo* find(const NativeFunction& f) const {
    const bool generated = f.tags.count("generated") != 0;
    if (generated && f.func.kind() == SchemaKind::Out) return nullptr;
    if (auto it = by_schema_.find(f.func.to_string()); it != by_schema_.end()) return it->second;
    const std::string sig = f.func.signature(true).to_string();
    if (auto it = functional_.find(sig); it != functional_.end() && !is_foreach(f)) return it->second;
    if (auto it = non_functional_.find(sig); generated && it != non_functional_.end()) return it->second;
    return nullptr;
  }

 private:
  void index(const FunctionSchema& schema, const DifferentiabilityInfo* info) {
    by_schema_[schema.to_string()] = info;
    (schema.kind() == SchemaKind::Functional ? functional_ : non_functional_)[schema.signature(true).to_string()] = info;
  }

  std::map<std::string, const DifferentiabilityInfo*> by_schema_;
  std::map<std::string, const DifferentiabilityInfo*> functional_, non_functional_;
};

// is_reference_for_foreach: the non-foreach functional op a _foreach_ op derives its formula from.
inline bool is_reference_for_foreach(const FunctionSchema& foreach_op, const FunctionSchema& ref, bool inplace_ref) {
  if (foreach_op.name.base.substr(std::string("_foreach_").size()) != ref.name.base) return false;
  if (ref.name.inplace && !inplace_ref) return false;
  const size_t n = std::min(foreach_op.arguments.size(), ref.arguments.size());
  for (size_t i = 0; i < n; ++i) {
    const SchemaArgument &a = foreach_op.arguments[i], &r = ref.arguments[i];
    if (a.out || r.out) break;
    const std::string elem = a.type.ends_with("[]") ? a.type.substr(0, a.type.size() - 2) : "";
    if (r.type != a.type && r.type != elem) return false;
  }
  return true;
}


// gen_foreach_derivativeinfo: a _foreach_ op derives its info from its reference op's
// formula (_foreach_zero_ takes zero_'s: _foreach_with_inplace_ref).
inline bool has_foreach_reference(const NativeFunction& f, const TorchgenModel& model, const ReleaseRules& rules) {
  const bool inplace_ref = rules.foreach_with_inplace_ref.count(f.name()) != 0;
  for (const auto& d : model.derivatives) {
    const bool kind_ok = d.func.kind() == SchemaKind::Functional || (inplace_ref && d.func.kind() == SchemaKind::Inplace);
    if (kind_ok && d.keys.count("Default") && is_reference_for_foreach(f.func, d.func, inplace_ref)) return true;
  }
  return false;
}

}  // namespace dispatchctl::torchgen
