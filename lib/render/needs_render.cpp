#include "render/needs_render.h"

namespace dispatchctl {

namespace {

std::string needed_list(const std::vector<NeededOperator>& needed) {
  std::string out;
  for (const auto& n : needed) {
    out += "      " + std::string(n.op->name) + " (unblocks " + std::to_string(n.unblocks) + " row" +
           (n.unblocks == 1 ? "" : "s") + ")\n";
  }
  return out;
}

nlohmann::ordered_json needed_json(const std::vector<NeededOperator>& needed) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const auto& n : needed) out.push_back({{"op", n.op->name}, {"unblocks", n.unblocks}});
  return out;
}

}  // namespace

void append_needs_text(std::string& out, const Catalogue& cat, const Operator& op, const OperatorNeeds& needs) {
  const std::string key = cat.name(needs.key);
  out += "\nTo implement at " + key + " (most rows unblocked first):\n";
  if (needs.forward.empty()) out += "    forward: nothing missing on the paths the release recorded\n";
  else out += "    forward:\n" + needed_list(needs.forward);
  if (!needs.backward_recorded)
    out += "    backward: not recorded for " + std::string(op.name) + "\n";
  else if (needs.backward.empty())
    out += "    backward: nothing more\n";
  else
    out += "    backward:\n" + needed_list(needs.backward);
}

nlohmann::ordered_json needs_json(const Catalogue& cat, const OperatorNeeds& needs) {
  nlohmann::ordered_json out;
  out["key"] = cat.name(needs.key);
  out["forward"] = needed_json(needs.forward);
  out["backward_recorded"] = needs.backward_recorded;
  out["backward"] = needed_json(needs.backward);
  return out;
}

}  // namespace dispatchctl
