#include "load/export_generated_calls.h"

#include <filesystem>
#include <string_view>

#include "load/load_registry.h"
#include "registry/manifest_generated_calls.h"
#include "torchgen/generated_calls.h"
#include "torchgen/inputs.h"
#include "util/errors.h"
#include "util/file_io.h"
#include "util/log.h"

namespace dispatchctl {
namespace {

constexpr std::string_view k_folder_line = "dispatchctl-export: torchgen YAML: ";

}  // namespace

std::string torchgen_yaml_folder_from(std::string_view err) {
  const std::size_t at = err.find(k_folder_line);
  if (at == std::string_view::npos) return "";
  std::string_view folder = err.substr(at + k_folder_line.size());
  folder = folder.substr(0, folder.find('\n'));
  return folder == "none" ? "" : std::string(folder);
}

ExportCallsAdded add_generated_calls_to_export(const std::string& manifest_path, const std::string& yaml_folder) {
  const std::string face_value = ": its generated composites are taken at face value (report, explain, query "
                                 "and trace do not follow them to what they call)";
  std::error_code ec;
  if (yaml_folder.empty() || (!std::filesystem::is_regular_file(yaml_folder + "/native_functions.yaml", ec) &&
                              !std::filesystem::is_regular_file(yaml_folder + "/native_functions.yaml.gz", ec)))
    return {0, "the exported torch ships no torchgen YAML (torchgen/packaged/ATen/native/native_functions.yaml)" +
                   face_value};
  PhaseTimer timer("generated calls");
  try {
    // Alone, as its own whole registry, read as any manifest file is; "./" keeps an
    // output named like another source form (builtin:X, python) a file.
    const bool plain_path = manifest_path.starts_with('/') || manifest_path.starts_with('.');
    const std::string source = plain_path ? manifest_path : "./" + manifest_path;
    const std::unique_ptr<Registry> loaded = load_registry(LoadRequest{{source}, LoadRequest::Layering::Bare});
    Registry& registry = *loaded;
    const std::size_t recorded = torchgen::record_generated_calls(registry, torchgen::read_torchgen_inputs(yaml_folder));
    if (recorded == 0)
      return {0, yaml_folder + "/native_functions.yaml names no generated composite of the export" + face_value};
    // The calls as the manifest's own section, by kernel entry: the exporter's lines are left as written.
    const auto section = generated_calls_section(registry, source);
    write_file_atomically(manifest_path,
                          with_generated_calls_section(read_input_file(manifest_path), section, manifest_path));
    return {section.size(), ""};
  } catch (const InputError& e) {
    return {0, std::string("cannot derive what generated composites call: ") + e.what() + face_value};
  }
}

}  // namespace dispatchctl
