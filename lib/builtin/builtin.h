// The registries of the PyTorch builds in lib/builtin/data/ (real CPU-only and
// CUDA builds, and predicted ones made at build time) and their release profiles, built into the binary. PyTorch's
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
  std::string_view version;         // what builtin: names: the release, '+' and a build if not CPU-only ("2.6.0+cuda")
  std::string_view release;         // the PyTorch release alone ("2.6.0")
  std::string_view build;           // "CPU-only", "CUDA" (profile.json's "build")
  std::string_view predicted_from;  // "" for a real registry; else how it was predicted, from which real ones
  std::string_view pack;            // _dispatch_dump of every operator, packed (builtin/pack.h)
  std::string_view fallbacks_json;  // {key: text}
  ReleaseSpec (*profile)();         // the release profile (keys/profile.h), compiled in
};

// Newest release first.
const std::vector<BuiltinRegistry>& builtin_registries();
// The built-in registries of a build ("CUDA"), newest first, real before predicted:
// "builtin:2.6.0+cuda (real), builtin:2.14.1+cuda (predicted)"; "" if none.
std::string builtin_names_of_build(std::string_view build);
// "builtin:2.14.1+cuda is a predicted registry, not a real build (how it was
// made): …" when `sources` (a Registry's) name a predicted built-in; "" otherwise.
std::string predicted_registry_note(const std::vector<std::string>& sources);
// "builtin:2.14.1" or "builtin:2.14" -> the entry, "builtin:2.6.0+cuda" or
// "builtin:2.6+cuda" -> that build's; nullptr if unknown. A name without a
// build names a build without one.
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
