// dispatchctl import torch-dump: PyTorch's own dump text -> a manifest.
#include "common.h"
#include "registry/manifest.h"
#include "registry/sources.h"
#include "util/file_io.h"
#include "util/log.h"

namespace dispatchctl::cli {

namespace {
struct ImportCommand {
  std::string state_file;
  std::string fallbacks_file;
  std::string torch_version;
  std::string output;

  int run() const {
    const std::string state = read_input_file(state_file);
    const std::string fallbacks = fallbacks_file.empty() ? std::string() : read_input_file(fallbacks_file);
    auto registry = import_torch_dump(torch_version, state, state_file, fallbacks, fallbacks_file);
    const std::string manifest = write_manifest(*registry, torch_version);
    if (output.empty() || output == "-") write_stdout(manifest);
    else write_file_atomically(output, manifest);
    size_t kernels = 0;
    for (const auto& op : registry->operators()) kernels += op.registrations.size();
    log_note("imported {} operators, {} kernels, {} backend fallbacks{}", registry->operators().size(), kernels,
             registry->fallbacks().size(), output.empty() || output == "-" ? "" : " into " + output);
    return 0;
  }
};
}  // namespace

void setup_import(CLI::App& app, int& exit_code) {
  CLI::App* import = app.add_subcommand("import", "Convert PyTorch's own dump text into a manifest");
  import->require_subcommand(1);
  auto command = std::make_shared<ImportCommand>();
  CLI::App* sub = import->add_subcommand(
      "torch-dump", "Import torch._C._dispatch_dump output into a manifest");
  sub->footer(
      "STATE_FILE holds one or more blocks separated by '=== NAME' lines "
      "(as in shared/data/*/registry_state.txt.gz), or a single block pasted from a bug report. "
      "Gzipped files are read directly.\n"
      "Example: dispatchctl import torch-dump registry_state.txt.gz --fallbacks fallbacks.json "
      "--torch-version 2.14.1 -o manifest.json");
  sub->add_option("STATE_FILE", command->state_file, "_dispatch_dump text (may be .gz)")->required();
  sub->add_option("--fallbacks", command->fallbacks_file,
                  "JSON {key: table text} of backend fallbacks (fallbacks.json); without it the "
                  "manifest has no fallbacks")
      ->type_name("FILE");
  sub->add_option("--torch-version", command->torch_version, "Release the dump came from, e.g. 2.14.1")
      ->required()
      ->type_name("V");
  sub->add_option("-o,--output", command->output, "Manifest to write (default: stdout); written atomically")
      ->type_name("FILE");
  sub->callback([command, &exit_code] { exit_code = command->run(); });
}

}  // namespace dispatchctl::cli
