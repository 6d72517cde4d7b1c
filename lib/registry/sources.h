// Turning `-m` values (registry/source_spec.h) into one Registry, layered in
// the order given; a first manifest that is not a whole registry goes over its
// release's built-in registry unless LoadOptions::bare.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "registry/registry.h"
#include "registry/torch_dump.h"

namespace dispatchctl {

// Process-wide loading choices, set once by the CLI: --bare, and how `-m python[:P]` gets its manifest
// (returns the path of a cached export).
struct LoadOptions {
  bool bare = false;
  std::function<std::string(const std::string& interpreter, const std::vector<std::string>& imports)> python_export;
};
LoadOptions& load_options();

// An empty list means the default registry, builtin:2.14.1. `only` skips the
// other operators of built-in registries (manifest files are always loaded
// whole, so their errors are never hidden).
// Called with every manifest document loaded (files and -m python exports), so a
// command that needs more of it than the registry (verify's recorded dumps) does
// not parse it again.
struct ManifestDocument;
using ManifestObserver = std::function<void(const ManifestDocument&)>;
std::unique_ptr<Registry> load_registry(const std::vector<std::string>& sources,
                                        const OperatorFilter& only = {},
                                        const ManifestObserver& on_manifest = {});
// A registry from a torch dump (state text and optional fallbacks JSON text).
std::unique_ptr<Registry> import_torch_dump(const std::string& torch_version,
                                            std::string_view state_text,
                                            const std::string& state_source,
                                            std::string_view fallbacks_text,
                                            const std::string& fallbacks_source);

}  // namespace dispatchctl
