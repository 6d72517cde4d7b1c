#include "builtin/opsets.h"

#include <map>

namespace dispatchctl {

const std::vector<BuiltinOpset>& builtin_opsets() {
  static const std::vector<BuiltinOpset> all = {
#include "builtin/builtin_opsets.inc"
  };
  return all;
}

const BuiltinOpset* find_builtin_opset(std::string_view release, std::string_view name) {
  release = release.substr(0, release.find('+'));
  for (const auto& opset : builtin_opsets())
    if (opset.release == release && opset.name == name) return &opset;
  return nullptr;
}

std::string builtin_opset_names() {
  std::map<std::string_view, std::string> releases;
  for (const auto& opset : builtin_opsets()) {
    std::string& list = releases[opset.name];
    list += (list.empty() ? "" : ", ") + std::string(opset.release);
  }
  std::string out;
  for (const auto& [name, list] : releases) out += (out.empty() ? "" : "; ") + std::string(name) + " (" + list + ")";
  return out.empty() ? "none" : out;
}

}  // namespace dispatchctl
