// Importing what PyTorch prints: `_dispatch_dump` blocks (a whole
// registry separated by `=== NAME` lines, or one block pasted from a bug
// report) and the `{key: text}` fallback map of shared/data/*/fallbacks.json.
#pragma once

#include <string>
#include <string_view>

#include "registry/registry.h"

namespace dispatchctl {

// Registers every operator of the dump. Kernels of one key are registered
// oldest first so the dump's active kernel ends up active again.
void import_torch_state(Registry& registry, std::string_view text, const std::string& source);
// `{"AutogradCPU": "fallthrough registered at …", …}`.
void import_torch_fallbacks(Registry& registry, std::string_view json_text,
                            const std::string& source);

}  // namespace dispatchctl
