#include "render/query_render.h"

#include "builtin/builtin.h"
#include "render/json_document.h"
#include "render/outcome_render.h"

namespace dispatchctl {

std::string query_json_text(const Registry& registry, const std::vector<const Operator*>& found,
                            std::optional<size_t> unknown_python_kernels,
                            const std::optional<QueryOutcomes>& outcomes) {
  nlohmann::ordered_json doc = json_document();
  doc["torch_version"] = registry.torch_version();
  if (std::string note = predicted_registry_note(registry.sources); !note.empty()) doc["registry_note"] = note;
  doc["count"] = found.size();
  if (unknown_python_kernels) doc["unknown_python_kernels"] = *unknown_python_kernels;
  if (outcomes) {
    doc["key"] = registry.catalogue().name(outcomes->key);
    doc["outcomes"] = outcome_counts_json(outcomes->counts);
  }
  doc["operators"] = nlohmann::ordered_json::array();
  for (const Operator* op : found) doc["operators"].push_back(op->name);
  return doc.dump(2) + "\n";
}

std::string query_names_text(const std::vector<const Operator*>& found) {
  std::string out;
  for (const Operator* op : found) out += op->name + "\n";
  return out;
}

}  // namespace dispatchctl
