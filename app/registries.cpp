// dispatchctl registries: what is built in.
#include <nlohmann/json.hpp>

#include "builtin/builtin.h"
#include "common.h"
#include "keys/release_spec.h"
#include "query/predicates.h"
#include "load/load_registry.h"
#include "render/json_document.h"
#include "util/wrap.h"

namespace dispatchctl::cli {

void setup_registries(CLI::App& app, int& exit_code) {
  auto json = std::make_shared<bool>(false);
  CLI::App* sub = app.add_subcommand(
      "registries", "List the PyTorch registries built into this binary: real and predicted, CPU-only and CUDA");
  sub->footer(
      "Use one with -m builtin:NAME; without -m every command uses the newest real CPU-only build, " +
      std::string(k_default_registry) + ".\n"
      "A real registry is PyTorch's own dump of that build; a predicted one was made at build time from a real one "
      "(README \"Built-in registries\"), and every kernel it predicts says so.\n"
      "A CPU-only build (cpu_only) registers no kernel for CUDA, HIP, XPU, MPS…, so its\n"
      "CUDA rows are what a CPU-only PyTorch computes; use a CUDA registry or export your CUDA build\n"
      "(-m python, or dispatchctl export -o my_torch.json) for CUDA answers.\n"
      "JSON: [{name, torch_version, build, predicted, predicted_from?, cpu_only, backends_compiled,\n"
      "backends_not_compiled, operators, kernels, fallbacks, default}]");
  sub->add_flag("--json", *json, "JSON output");
  sub->callback([json, &exit_code] {
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    std::string text;
    const std::string cuda = builtin_names_of_build("CUDA");
    for (const auto& b : builtin_registries()) {
      const std::string name = std::string(k_builtin_prefix) + std::string(b.version);
      auto reg = load_registry({name});
      size_t kernels = 0;
      for (const auto& op : reg->operators()) kernels += op.registrations.size();
      const BuildBackends build = build_backends(*reg);
      const bool predicted = !b.predicted_from.empty();
      nlohmann::ordered_json entry = {{"name", name},
                      {"build", b.build},
                      {"predicted", predicted},
                      {"cpu_only", build.cpu_only},
                      {"backends_compiled", build.compiled},
                      {"backends_not_compiled", build.not_compiled},
                      {"torch_version", b.release},
                      {"operators", reg->operators().size()},
                      {"kernels", kernels},
                      {"fallbacks", reg->fallbacks().size()},
                      {"default", name == k_default_registry}};
      if (predicted) entry["predicted_from"] = b.predicted_from;
      list.push_back(std::move(entry));
      text += name + "  " + std::to_string(reg->operators().size()) + " operators, " +
              std::to_string(kernels) + " kernels, " + std::to_string(reg->fallbacks().size()) +
              " backend fallbacks" + (name == k_default_registry ? "  (default)" : "") + "\n";
      const std::string made = predicted ? "predicted from " + std::string(b.predicted_from)
                                         : "real: dumped from " + std::string(reg->catalogue().spec().reference_build);
      text += "  " + wrap_words("PyTorch " + std::string(b.release) + ", " + std::string(b.build) + " build, " + made,
                                2, 2, output_width()) + "\n";
      std::string compiled;
      for (const auto& backend : build.compiled) compiled += (compiled.empty() ? "" : " ") + backend;
      if (build.cpu_only)
        text += "  " + wrap_words("CPU-only build (kernels for " + compiled + " only): CUDA rows are what a "
                                  "CPU-only PyTorch computes; for CUDA answers use " +
                                      (cuda.empty() ? "" : cuda + " or ") + "your CUDA build (-m python)",
                                  2, 2, output_width()) + "\n";
    }
    write_stdout(*json ? json_document({{"registries", std::move(list)}}).dump(2) + "\n" : text);
    exit_code = 0;
  });
}

}  // namespace dispatchctl::cli
