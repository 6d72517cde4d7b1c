#include "keys/tensor_presets.h"

namespace dispatchctl {

std::vector<std::string> tensor_preset_names(const Catalogue& cat) {
  std::vector<std::string> out;
  for (const auto& p : cat.spec().tensor_presets) out.emplace_back(p.first);
  return out;
}

std::vector<std::string> tensor_modifier_names(const Catalogue& cat) {
  std::vector<std::string> out;
  for (const auto& p : cat.spec().tensor_modifier_keys) out.emplace_back(p.first);
  out.emplace_back("inference");
  out.emplace_back("requires_grad");
  out.emplace_back("leaf");
  return out;
}

}  // namespace dispatchctl
