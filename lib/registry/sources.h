// Turning `-m` values into one Registry: manifest files (JSON, gzip-aware)
// and `builtin:VERSION`, layered in the order given.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "registry/registry.h"
#include "registry/torch_dump.h"

namespace dispatchctl {

// An empty list means the default registry, builtin:2.14.1. `only` skips the
// other operators of built-in registries (manifest files are always loaded
// whole, so their errors are never hidden).
std::unique_ptr<Registry> load_registry(const std::vector<std::string>& sources,
                                        const OperatorFilter& only = {});
// A registry from a torch dump (state text and optional fallbacks JSON text).
std::unique_ptr<Registry> import_torch_dump(const std::string& torch_version,
                                            std::string_view state_text,
                                            const std::string& state_source,
                                            std::string_view fallbacks_text,
                                            const std::string& fallbacks_source);

}  // namespace dispatchctl
