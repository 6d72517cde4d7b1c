// The registration manifest (shared/design/manifest-format.md, schema in
// schemas/manifest.schema.json): loading one onto a Registry, and writing
// a Registry back out.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "registry/registry.h"

namespace dispatchctl {

// A parsed manifest whose format and torch_version were checked.
struct ManifestDocument {
  nlohmann::ordered_json doc;
  std::string torch_version;
  std::string source;
};
ManifestDocument read_manifest(std::string_view text, const std::string& source);
// Applies a manifest's registrations on top of what the registry holds,
// like a library loaded after the earlier ones.
void apply_manifest(Registry& registry, const ManifestDocument& manifest);
// The registry as one manifest (operators and kernels in registration order).
std::string write_manifest(const Registry& registry, const std::string& torch_version);

}  // namespace dispatchctl
