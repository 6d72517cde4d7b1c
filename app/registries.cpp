// dispatchctl registries: what is built in.
#include <nlohmann/json.hpp>

#include "builtin/builtin.h"
#include "common.h"
#include "query/predicates.h"
#include "load/load_registry.h"
#include "render/json_document.h"
#include "util/wrap.h"

namespace dispatchctl::cli {

void setup_registries(CLI::App& app, int& exit_code) {
  auto json = std::make_shared<bool>(false);
  CLI::App* sub = app.add_subcommand(
      "registries", "List the real PyTorch registries built into this binary");
  sub->footer(
      "Use one with -m builtin:VERSION; without -m every command uses the newest, " +
      std::string(k_default_registry) + ".\n"
      "A CPU-only build (cpu_only) registers no kernel for CUDA, HIP, XPU, MPS…, so its\n"
      "CUDA rows are what a CPU-only PyTorch computes; export your CUDA build\n"
      "(-m python, or dispatchctl export -o my_torch.json) for CUDA answers.\n"
      "JSON: [{name, torch_version, cpu_only, backends_compiled, backends_not_compiled, operators,\n"
      "kernels, fallbacks, default}]");
  sub->add_flag("--json", *json, "JSON output");
  sub->callback([json, &exit_code] {
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    std::string text;
    for (const auto& b : builtin_registries()) {
      const std::string name = std::string(k_builtin_prefix) + std::string(b.version);
      auto reg = load_registry({name});
      size_t kernels = 0;
      for (const auto& op : reg->operators()) kernels += op.registrations.size();
      const BuildBackends build = build_backends(*reg);
      list.push_back({{"name", name},
                      {"cpu_only", build.cpu_only},
                      {"backends_compiled", build.compiled},
                      {"backends_not_compiled", build.not_compiled},
                      {"torch_version", b.version},
                      {"operators", reg->operators().size()},
                      {"kernels", kernels},
                      {"fallbacks", reg->fallbacks().size()},
                      {"default", name == k_default_registry}});
      text += name + "  " + std::to_string(reg->operators().size()) + " operators, " +
              std::to_string(kernels) + " kernels, " + std::to_string(reg->fallbacks().size()) +
              " backend fallbacks" + (name == k_default_registry ? "  (default)" : "") + "\n";
      std::string compiled;
      for (const auto& backend : build.compiled) compiled += (compiled.empty() ? "" : " ") + backend;
      if (build.cpu_only)
        text += "  " + wrap_words("CPU-only build (kernels for " + compiled + " only): CUDA rows are what a "
                                  "CPU-only PyTorch computes; export your CUDA build (-m python) for CUDA answers",
                                  2, 2, output_width()) + "\n";
    }
    write_stdout(*json ? json_document({{"registries", std::move(list)}}).dump(2) + "\n" : text);
    exit_code = 0;
  });
}

}  // namespace dispatchctl::cli
