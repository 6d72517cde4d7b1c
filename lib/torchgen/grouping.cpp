#include "torchgen/grouping.h"

#include <unordered_map>

namespace dispatchctl::torchgen {

std::vector<SignatureGroup> group_by_signature(const std::vector<NativeFunction>& functions) {
  std::vector<SignatureGroup> groups;
  std::unordered_map<std::string, size_t> index;
  for (size_t i = 0; i < functions.size(); ++i) {
    std::string sig = torchgen_text(signature(functions[i].func));
    auto [it, fresh] = index.emplace(sig, groups.size());
    if (fresh) groups.push_back({std::move(sig), {}});
    groups[it->second].members.emplace(schema_kind(functions[i].func), i);  // torchgen asserts on a second one
  }
  return groups;
}

bool generation_skipped(const SignatureGroup& group, const std::vector<NativeFunction>& functions,
                        const ReleaseRules& rules) {
  bool manual = true, view = false, cia = true, core = false;
  for (const auto& [kind, index] : group.members) {
    const NativeFunction& f = functions[index];
    manual = manual && f.manual_cpp_binding;
    const bool exempt_set = rules.set_is_not_a_view && unqualified_name(f.func) == "set_";
    view = view || (f.is_view_op(rules.inplace_view_not_views) && !exempt_set);
    cia = cia && f.has_cia();
    core = core || f.tags.count("core");
  }
  return manual || view || (cia && !(rules.cia_groups_generate_if_core && core));
}

const NativeFunction* generation_base(const SignatureGroup& group, const std::vector<NativeFunction>& functions,
                                      const ReleaseRules& rules) {
  auto member = [&](SchemaKind k) -> const NativeFunction* {
    auto it = group.members.find(k);
    return it == group.members.end() ? nullptr : &functions[it->second];
  };
  const NativeFunction* functional = member(SchemaKind::Functional);
  const NativeFunction* inplace = member(SchemaKind::Inplace);
  const NativeFunction* mutable_op = member(SchemaKind::Mutable);
  const NativeFunction* out = member(SchemaKind::Out);
  if (!functional && !inplace && !mutable_op && !out) return nullptr;
  if (generation_skipped(group, functions, rules)) return nullptr;
  if (out && group.members.size() == 1) return nullptr;  // a lone out= op (torchgen refuses others)
  if (inplace && rules.inplace_ops_not_grouped.count(inplace->name())) return nullptr;
  return rules.prefer_mutable_base ? (mutable_op ? mutable_op : inplace ? inplace : out ? out : functional)
                                   : (inplace ? inplace : mutable_op ? mutable_op : out ? out : functional);
}

}  // namespace dispatchctl::torchgen
