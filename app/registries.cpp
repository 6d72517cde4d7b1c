// dispatchctl registries: what is built in.
#include "builtin/builtin.h"
#include "common.h"
#include "inventory/builtin_inventory.h"
#include "render/registries_render.h"

namespace dispatchctl::cli {

void setup_registries(CLI::App& app, int& exit_code) {
  auto json = std::make_shared<bool>(false);
  auto format = std::make_shared<std::string>();
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
      "--format json: [{name, torch_version, build, predicted, predicted_from?, cpu_only, backends_compiled,\n"
      "backends_not_compiled, operators, kernels, fallbacks, default}]");
  add_format_option(sub, *format, {"text", "json"});
  sub->add_flag("--json", *json, "Same as --format json")->group("");
  sub->callback([json, format, &exit_code] {
    const BuiltinInventory inventory = builtin_inventory();
    write_stdout(*json || *format == "json" ? registries_json(inventory).dump(2) + "\n" : registries_text(inventory, output_width()));
    exit_code = 0;
  });
}

}  // namespace dispatchctl::cli
