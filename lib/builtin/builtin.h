// The real registries of PyTorch 2.14.1 and 1.13.1 and their release profiles, embedded in the binary
// as PyTorch printed them (registry_state + fallbacks) and imported on use.
// Stored gzipped in lib/builtin/data/, embedded uncompressed so that start-up
// needs no inflate and `show OP` can skip the blocks of other operators.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace dispatchctl {

struct BuiltinRegistry {
  std::string_view version;         // "2.14.1"
  std::string_view state;           // _dispatch_dump of every operator (=== NAME blocks)
  std::string_view fallbacks_json;  // {key: text}
  std::string_view profile_json;    // the release profile (keys/profile.h)
};

const std::vector<BuiltinRegistry>& builtin_registries();
// "builtin:2.14.1" or "builtin:2.14" -> the entry; nullptr if unknown.
const BuiltinRegistry* find_builtin(std::string_view name);
// tools/dispatchctl-export.py as this binary was built with it.
std::string_view exporter_script();
constexpr std::string_view k_builtin_prefix = "builtin:";
constexpr std::string_view k_default_registry = "builtin:2.14.1";

}  // namespace dispatchctl
