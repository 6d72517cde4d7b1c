#include "load/export_generated_calls.h"

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string_view>
#include <utility>

#include <nlohmann/json.hpp>

#include "load/load_registry.h"
#include "torchgen/generated_calls.h"
#include "torchgen/inputs.h"
#include "util/errors.h"
#include "util/file_io.h"
#include "util/log.h"
#include "util/parse_number.h"

namespace dispatchctl {
namespace {

constexpr std::string_view k_folder_line = "dispatchctl-export: torchgen YAML: ";

// (operator entry, kernel entry) of the manifest -> the JSON of its "generated_call".
using CallsByEntry = std::map<std::pair<std::size_t, std::size_t>, std::string>;

// "/operators/ENTRY/kernels/INDEX": where the manifest reader found the kernel.
std::optional<std::pair<std::size_t, std::size_t>> manifest_kernel_entry(std::string_view pointer) {
  constexpr std::string_view k_operators = "/operators/", k_kernels = "/kernels/";
  if (!pointer.starts_with(k_operators)) return std::nullopt;
  pointer.remove_prefix(k_operators.size());
  const size_t slash = pointer.find('/');
  if (slash == std::string_view::npos || !pointer.substr(slash).starts_with(k_kernels)) return std::nullopt;
  const auto entry = parse_integer<std::size_t>(pointer.substr(0, slash), 0, SIZE_MAX);
  const auto index = parse_integer<std::size_t>(pointer.substr(slash + k_kernels.size()), 0, SIZE_MAX);
  if (!entry || !index) return std::nullopt;
  return std::pair{*entry, *index};
}

CallsByEntry calls_by_entry(const Registry& registry) {
  CallsByEntry out;
  for (const Operator& op : registry.operators())
    for (const Kernel& kernel : op.registrations) {
      const GeneratedCall* call = registry.generated_call(kernel);
      if (!call) continue;
      const auto at = manifest_kernel_entry(kernel.origin.pointer());
      if (!at) continue;
      const auto [entry, index] = *at;
      // Spaced as the exporter's json.dumps spaces the rest of the line.
      out[{entry, index}] = "{\"op\": " + nlohmann::json(std::string(call->callee)).dump() + ", \"kind\": \"" +
                            std::string(generated_call_kind_id(call->kind)) + "\"}";
    }
  return out;
}

// The exporter writes one line per operator head and per kernel
// (tools/dispatchctl_exporter/manifest_writer.py): "  {…" starts an operator
// entry, "    {…}" is a kernel followed by ",", "]}" or "]},". Each kernel
// line with a call gets `, "generated_call": {…}` before its closing brace.
// Returns how many were added (all of `calls`, or the file is not laid out so).
std::size_t add_to_lines(std::string_view text, const CallsByEntry& calls, std::string& out) {
  out.reserve(text.size() + calls.size() * 80);
  bool in_operators = false;
  std::size_t entry = 0, kernel = 0, added = 0;
  bool seen_entry = false;
  while (!text.empty()) {
    const std::size_t end = text.find('\n');
    std::string_view line = text.substr(0, end);
    text.remove_prefix(end == std::string_view::npos ? text.size() : end + 1);
    const bool newline = end != std::string_view::npos;
    if (!in_operators) {
      in_operators = line == " \"operators\": [";
    } else if (line.starts_with(" ]")) {
      in_operators = false;
    } else if (line.starts_with("    {")) {
      const auto call = calls.find({entry, kernel++});
      if (seen_entry && call != calls.end()) {
        std::size_t close = line.size();
        if (line.ends_with(',')) --close;
        if (line.substr(0, close).ends_with("]}")) close -= 2;
        if (close > 0 && line[close - 1] == '}') {
          out.append(line.substr(0, close - 1)).append(", \"generated_call\": ").append(call->second);
          out.append(line.substr(close - 1));
          if (newline) out += '\n';
          ++added;
          continue;
        }
      }
    } else if (line.starts_with("  {")) {
      if (seen_entry) ++entry;
      seen_entry = true;
      kernel = 0;
    }
    out.append(line);
    if (newline) out += '\n';
  }
  return added;
}

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
    const std::unique_ptr<Registry> loaded = load_registry(
        LoadRequest{{plain_path ? manifest_path : "./" + manifest_path}, LoadRequest::Layering::Bare});
    Registry& registry = *loaded;
    const std::size_t recorded = torchgen::record_generated_calls(registry, torchgen::read_torchgen_inputs(yaml_folder));
    if (recorded == 0)
      return {0, yaml_folder + "/native_functions.yaml names no generated composite of the export" + face_value};
    const CallsByEntry calls = calls_by_entry(registry);
    const std::string text = read_input_file(manifest_path);
    std::string out;
    if (add_to_lines(text, calls, out) != calls.size())
      return {0, manifest_path + " is not laid out as the exporter writes it" + face_value};
    write_file_atomically(manifest_path, out);
    return {calls.size(), ""};
  } catch (const InputError& e) {
    return {0, std::string("cannot derive what generated composites call: ") + e.what() + face_value};
  }
}

}  // namespace dispatchctl
