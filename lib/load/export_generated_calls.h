// What the generated composites of an exported registry call (issue 22): the
// live torch ships torchgen with its native_functions.yaml
// (torchgen/packaged/ATen/native/), the YAML the build generated its kernels
// from. After the embedded exporter wrote its manifest, the manifest is loaded,
// torchgen's model of that YAML says which kernels are generated composites
// and what each calls (torchgen/generated_calls.h, as for the built-in
// registries), and each such kernel's entry gets its "generated_call"
// (docs/manifest-format.md), so `dispatchctl export`'s file and the `-m python`
// cache carry it.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace dispatchctl {

struct ExportCallsAdded {
  std::size_t calls = 0;  // kernels given a "generated_call"
  std::string note;       // when none could be derived: why ("" otherwise)
};

// `yaml_folder`: the folder holding native_functions.yaml (and tags.yaml), ""
// when the exporter found none. Rewrites `manifest_path` atomically when a call
// was derived; leaves it as it is otherwise, saying why in the note.
ExportCallsAdded add_generated_calls_to_export(const std::string& manifest_path, const std::string& yaml_folder);

// The exporter's stderr line naming that folder ("dispatchctl-export: torchgen
// YAML: FOLDER" or "… none"): the folder, or "".
std::string torchgen_yaml_folder_from(std::string_view exporter_stderr);

}  // namespace dispatchctl
