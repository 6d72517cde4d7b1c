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

}  // namespace dispatchctl::torchgen
