// A manifest's "generated_calls" section (docs/manifest-format.md): what
// torchgen's generated composite kernels of the file call, each kernel named
// by its entry's ordinals. A writer that learns the calls after the file was
// written (`dispatchctl export`, from the torchgen YAML the exported torch
// ships) adds this one section as the document's last field instead of
// touching the kernels' entries; the reader applies it once the file's
// kernels are registered, as it does "composite_calls".
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "registry/registry.h"
#include "util/json_object_reader.h"

namespace dispatchctl {

// An object's "op" and "kind" (a kernel's "generated_call", a section's
// entry), checked: the one reader of a generated call (manifest.cpp).
GeneratedCall read_generated_call_fields(const ObjectReader& r, StringPool& strings);

// Records the calls of `section` (the array at /generated_calls) on the
// kernels registered from `source`; a kernel the registry refused is
// skipped. InputError for a malformed entry.
void apply_generated_calls_section(Registry& registry, const nlohmann::ordered_json& section,
                                   const std::string& source);

// The section for every kernel registered from `source` whose generated call
// the registry knows, in entry order.
nlohmann::ordered_json generated_calls_section(const Registry& registry, std::string_view source);

// `manifest`, a manifest's text without the section, with `section` added as
// its last top-level field; the rest of the text is left as it is.
// InputError when the text does not end as a JSON object does.
std::string with_generated_calls_section(std::string_view manifest, const nlohmann::ordered_json& section,
                                         const std::string& source);

}  // namespace dispatchctl
