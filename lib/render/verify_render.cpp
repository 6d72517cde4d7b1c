#include "render/verify_render.h"

#include "render/json_document.h"

namespace dispatchctl {

std::string verify_text(const VerifyResult& r) {
  std::string out = std::to_string(r.tables_identical) + "/" + std::to_string(r.tables_total) +
                    " tables identical, " + std::to_string(r.states_identical) + "/" +
                    std::to_string(r.states_total) + " states identical\n";
  if (!r.missing.empty()) {
    out += std::to_string(r.missing.size()) + " recorded operators are not in the registry, e.g. " +
           r.missing.front() + "\n";
  }
  for (const auto& d : r.differences) out += "\n" + d.diff;
  return out;
}

nlohmann::ordered_json verify_json(const VerifyResult& r) {
  nlohmann::ordered_json j = json_document();
  j["identical"] = r.all_identical();
  j["tables"] = {{"identical", r.tables_identical}, {"total", r.tables_total}};
  j["states"] = {{"identical", r.states_identical}, {"total", r.states_total}};
  j["missing"] = r.missing;
  auto diffs = nlohmann::ordered_json::array();
  for (const auto& d : r.differences) diffs.push_back({{"operator", d.op}, {"kind", d.kind}, {"diff", d.diff}});
  j["first_differences"] = std::move(diffs);
  return j;
}

}  // namespace dispatchctl
