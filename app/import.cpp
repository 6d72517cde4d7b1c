// dispatchctl import torch-dump: PyTorch's own dump text -> a manifest.
#include "builtin/builtin.h"
#include "common.h"
#include "registry/manifest.h"
#include "load/load_registry.h"
#include "torchgen/apply.h"
#include "torchgen/generated_calls.h"
#include "torchgen/inputs.h"
#include "util/file_io.h"
#include "util/log.h"

namespace dispatchctl::cli {

namespace {


size_t kernel_count(const Registry& registry) {
  size_t kernels = 0;
  for (const auto& op : registry.operators()) kernels += op.registrations.size();
  return kernels;
}

struct ImportCommand {
  std::string state_file;
  std::string fallbacks_file;
  std::string torch_version;
  std::string torchgen_yaml;
  std::string output;

  int run() const {
    const std::string state = read_input_file(state_file);
    const std::string fallbacks = fallbacks_file.empty() ? std::string() : read_input_file(fallbacks_file);
    auto registry = import_torch_dump(torch_version, state, state_file, fallbacks, fallbacks_file);
    // The YAML the build generated its kernels from says what its generated composites call.
    const std::size_t calls = torchgen_yaml.empty() ? 0
                              : torchgen::record_generated_calls(*registry, torchgen::read_torchgen_inputs(torchgen_yaml));
    const bool to_file = write_output(write_manifest(*registry, torch_version), output);
    log_note("imported {} operators, {} kernels, {} backend fallbacks{}{}", registry->operators().size(),
             kernel_count(*registry), registry->fallbacks().size(),
             torchgen_yaml.empty() ? "" : ", " + std::to_string(calls) + " generated composites' calls",
             to_file ? " into " + output : "");
    return 0;
  }
};
// dispatchctl import torchgen: what torchgen would register, as a manifest.
struct TorchgenImportCommand {
  std::string path;
  RegistryOptions base;
  std::string build_backends = "CPU";
  std::string output;

  int run() const {
    // The base only names the release (its catalogue and torchgen rules).
    const auto base_registry = open_registry(base);
    Registry registry(base_registry->catalogue(), base_registry->torch_version());
    apply_torchgen_yaml(registry, path, build_backends);
    const bool to_file = write_output(write_manifest(registry, registry.torch_version()), output);
    log_note("predicted {} operators, {} kernels for PyTorch {} (backends {}){}", registry.operators().size(),
             kernel_count(registry), registry.torch_version(), build_backends, to_file ? " into " + output : "");
    return 0;
  }
};

void setup_import_torchgen(CLI::App* import, int& exit_code) {
  auto command = std::make_shared<TorchgenImportCommand>();
  CLI::App* sub = import->add_subcommand(
      "torchgen", "Write the registrations torchgen generates from native_functions.yaml as a manifest");
  sub->footer(
      "PATH is a PyTorch checkout (aten/src/ATen/native/ and tools/autograd/), a folder holding "
      "native_functions.yaml, tags.yaml, derivatives.yaml and deprecated.yaml, or native_functions.yaml itself "
      "(.gz read directly). Each kernel's origin is its YAML file:line and torchgen rule "
      "(docs/torchgen-rules.md). The release's rules and key catalogue come from -m "
      "(default " + std::string(k_default_registry) + "); hand-written C++ and Python registrations are not in the output "
      "(layer it with -m builtin:VERSION -m torchgen:PATH for full tables).\n"
      "Examples:\n"
      "  dispatchctl import torchgen ~/pytorch -o predicted.json\n"
      "  dispatchctl import torchgen native_functions.yaml.gz -m " + oldest_builtin() + " -o old.json\n"
      "  dispatchctl import torchgen ~/pytorch --build-backends CPU,CUDA -o cuda_build.json");
  sub->add_option("PATH", command->path, "PyTorch checkout, YAML folder or native_functions.yaml")->required();
  add_registry_options(sub, command->base);
  sub->add_option("--build-backends", command->build_backends,
                  "Backends the build compiles Register<Key>.cpp for (default CPU, as Debian's build)")
      ->type_name("LIST");
  add_output_option(sub, command->output, "Manifest");
  sub->callback([command, &exit_code] { exit_code = command->run(); });
}

}  // namespace

void setup_import(CLI::App& app, int& exit_code) {
  CLI::App* import = app.add_subcommand("import", "Convert PyTorch's dump text or torchgen's YAML into a manifest");
  import->require_subcommand(1);
  auto command = std::make_shared<ImportCommand>();
  CLI::App* sub = import->add_subcommand(
      "torch-dump", "Import torch._C._dispatch_dump output into a manifest");
  sub->footer(
      "STATE_FILE holds one or more blocks separated by '=== NAME' lines "
      "(as in shared/data/*/registry_state.txt.gz), or a single block pasted from a bug report. "
      "Gzipped files are read directly.\n"
      "Example: dispatchctl import torch-dump registry_state.txt.gz --fallbacks fallbacks.json "
      "--torch-version 2.14.1 --torchgen ~/pytorch -o manifest.json");
  sub->add_option("STATE_FILE", command->state_file, "_dispatch_dump text (may be .gz)")->required();
  sub->add_option("--fallbacks", command->fallbacks_file,
                  "JSON {key: table text} of backend fallbacks (fallbacks.json); without it the "
                  "manifest has no fallbacks")
      ->type_name("FILE");
  sub->add_option("--torch-version", command->torch_version, "Release the dump came from, e.g. 2.14.1")
      ->required()
      ->type_name("V");
  sub->add_option("--torchgen", command->torchgen_yaml,
                  "The build's torchgen YAML (checkout, folder or native_functions.yaml): each generated "
                  "composite kernel's generated_call, what it calls")
      ->type_name("PATH");
  add_output_option(sub, command->output, "Manifest");
  sub->callback([command, &exit_code] { exit_code = command->run(); });
  setup_import_torchgen(import, exit_code);
}

}  // namespace dispatchctl::cli
