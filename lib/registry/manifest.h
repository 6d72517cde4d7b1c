// The registration manifest (shared/design/manifest-format.md, schema in
// schemas/manifest.schema.json): loading one onto a Registry, and writing
// a Registry back out.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "registry/registry.h"

namespace dispatchctl {

// A parsed manifest whose format, torch_version and release profile were checked.
struct ManifestDocument {
  nlohmann::ordered_json doc;
  std::string torch_version;
  std::string source;
  // Its keys' catalogue: from its "release_profile", else `base` (what it is
  // layered over) or a built-in profile of the same MAJOR.MINOR.
  const Catalogue* catalogue = nullptr;
  bool has_profile = false;
  // Defines aten:: operators: a whole registry, not something to layer.
  bool whole_registry = false;
};
ManifestDocument read_manifest(std::string_view text, const std::string& source,
                               const Catalogue* base = nullptr);
// Applies a manifest's registrations on top of what the registry holds,
// like a library loaded after the earlier ones.
void apply_manifest(Registry& registry, const ManifestDocument& manifest);
// The registry as one manifest (operators and kernels in registration order).
std::string write_manifest(const Registry& registry, const std::string& torch_version);

}  // namespace dispatchctl
