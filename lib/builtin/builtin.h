// The real registries of the PyTorch releases in lib/builtin/data/ (today 2.14.1
// and 1.13.1) and their release profiles, built into the binary. PyTorch's
// dumps are stored gzipped there and parsed at build time into packs
// (builtin/pack.h), the profiles into C++ (keys/profile_source.h): start-up
// parses no profile and `show OP` reads only OP's records. Load one with
// load_pack (registry/sources.cpp does).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "builtin/newest_release.h"  // k_default_registry: the newest built-in (generated)

namespace dispatchctl {

struct ReleaseSpec;

struct BuiltinRegistry {
  std::string_view version;         // "2.14.1"
  std::string_view pack;            // _dispatch_dump of every operator, packed (builtin/pack.h)
  std::string_view fallbacks_json;  // {key: text}
  ReleaseSpec (*profile)();         // the release profile (keys/profile.h), compiled in
};

// Newest release first.
const std::vector<BuiltinRegistry>& builtin_registries();
// "builtin:2.14.1" or "builtin:2.14" -> the entry; nullptr if unknown.
const BuiltinRegistry* find_builtin(std::string_view name);
// "builtin:2.14.1, builtin:1.13.1": every built-in registry by the name a user
// types, newest (the default) first, for messages and help texts.
std::string builtin_registry_names();
// The exporter as this binary was built with it: tools/dispatchctl-export.py
// with the modules of tools/dispatchctl_exporter/ inlined (one file a user's
// Python runs; cmake/inline_exporter.cmake writes it as
// build/tools/dispatchctl-export.py).
std::string_view exporter_script();
constexpr std::string_view k_builtin_prefix = "builtin:";

}  // namespace dispatchctl
