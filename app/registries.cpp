// dispatchctl registries: what is built in.
#include <nlohmann/json.hpp>

#include "builtin/builtin.h"
#include "common.h"
#include "registry/sources.h"
#include "render/json_document.h"

namespace dispatchctl::cli {

void setup_registries(CLI::App& app, int& exit_code) {
  auto json = std::make_shared<bool>(false);
  CLI::App* sub = app.add_subcommand(
      "registries", "List the real PyTorch registries built into this binary");
  sub->footer("Use one with -m builtin:VERSION; without -m every command uses builtin:2.14.1.");
  sub->add_flag("--json", *json, "JSON output");
  sub->callback([json, &exit_code] {
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    std::string text;
    for (const auto& b : builtin_registries()) {
      const std::string name = std::string(k_builtin_prefix) + std::string(b.version);
      auto reg = load_registry({name});
      size_t kernels = 0;
      for (const auto& op : reg->operators()) kernels += op.registrations.size();
      list.push_back({{"name", name},
                      {"torch_version", b.version},
                      {"operators", reg->operators().size()},
                      {"kernels", kernels},
                      {"fallbacks", reg->fallbacks().size()},
                      {"default", name == k_default_registry}});
      text += name + "  " + std::to_string(reg->operators().size()) + " operators, " +
              std::to_string(kernels) + " kernels, " + std::to_string(reg->fallbacks().size()) +
              " backend fallbacks" + (name == k_default_registry ? "  (default)" : "") + "\n";
    }
    write_stdout(*json ? json_document({{"registries", std::move(list)}}).dump(2) + "\n" : text);
    exit_code = 0;
  });
}

}  // namespace dispatchctl::cli
