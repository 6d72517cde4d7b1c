// Importing what PyTorch prints: `_dispatch_dump` blocks (a whole
// registry separated by `=== NAME` lines, or one block pasted from a bug
// report) and the `{key: text}` fallback map of shared/data/*/fallbacks.json.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "registry/registry.h"

namespace dispatchctl {

// Which operators to load; empty = all. Lets `show OP` skip the other
// 3,000 blocks of a built-in registry.
using OperatorFilter = std::function<bool(std::string_view op_name)>;
// An OperatorFilter that also says how every name it accepts starts (with one
// of `prefixes`): a reader of name-sorted operators (the built-in pack) then
// looks only at those ranges, not at every name (load_pack).
struct OperatorPrefixes {
  std::vector<std::string> prefixes;
  std::function<bool(std::string_view op_name)> accepts;
  bool operator()(std::string_view op_name) const { return accepts(op_name); }
};

// Registers every operator of the dump (that `only` accepts). Kernels of one
// key are registered oldest first so the dump's active kernel ends up active.
void import_torch_state(Registry& registry, std::string_view text, const std::string& source,
                        const OperatorFilter& only = {});
// `{"AutogradCPU": "fallthrough registered at …", …}`.
void import_torch_fallbacks(Registry& registry, std::string_view json_text,
                            const std::string& source);

}  // namespace dispatchctl
