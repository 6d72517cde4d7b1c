#include "render/registries_render.h"

#include "render/json_document.h"
#include "util/wrap.h"

namespace dispatchctl {

std::string registries_text(const BuiltinInventory& inventory, size_t width) {
  std::string text;
  for (const BuiltinRegistrySummary& r : inventory.registries) {
    text += r.name + "  " + std::to_string(r.operators) + " operators, " + std::to_string(r.kernels) + " kernels, " +
            std::to_string(r.fallbacks) + " backend fallbacks" + (r.is_default ? "  (default)" : "") + "\n";
    const std::string made = r.predicted() ? "predicted from " + r.predicted_from : "real: dumped from " + r.reference_build;
    text += "  " + wrap_words("PyTorch " + r.release + ", " + r.build + " build, " + made, 2, 2, width) + "\n";
    std::string compiled;
    for (const auto& backend : r.backends.compiled) compiled += (compiled.empty() ? "" : " ") + backend;
    if (r.backends.cpu_only)
      text += "  " + wrap_words("CPU-only build (kernels for " + compiled + " only): CUDA rows are what a "
                                "CPU-only PyTorch computes; for CUDA answers use " +
                                    (inventory.cuda_registries.empty() ? "" : inventory.cuda_registries + " or ") +
                                    "your CUDA build (-m python)",
                                2, 2, width) + "\n";
  }
  return text;
}

nlohmann::ordered_json registries_json(const BuiltinInventory& inventory) {
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const BuiltinRegistrySummary& r : inventory.registries) {
    nlohmann::ordered_json entry = {{"name", r.name},
                                    {"build", r.build},
                                    {"predicted", r.predicted()},
                                    {"cpu_only", r.backends.cpu_only},
                                    {"backends_compiled", r.backends.compiled},
                                    {"backends_not_compiled", r.backends.not_compiled},
                                    {"torch_version", r.release},
                                    {"operators", r.operators},
                                    {"kernels", r.kernels},
                                    {"fallbacks", r.fallbacks},
                                    {"default", r.is_default}};
    if (r.predicted()) entry["predicted_from"] = r.predicted_from;
    list.push_back(std::move(entry));
  }
  return json_document({{"registries", std::move(list)}});
}

}  // namespace dispatchctl
