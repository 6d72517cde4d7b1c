// The one reader of release profiles: what a PyTorch release reports about its
// own dispatch keys (the shape of shared/data/torch-*/keys.json) plus the
// behaviour the exporter probed (README "Release profiles"). Built-in profiles
// (lib/builtin/data/*/profile.json), profiles in exported manifests and
// stand-alone profile files all go through here.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "keys/release_spec.h"

namespace dispatchctl {

// Fields of a profile object, for readers that embed one (manifests).
extern const std::vector<std::string_view> k_profile_fields;

// Reads the profile object at `pointer` of `source`. `torch_version` is the
// enclosing document's (a manifest's); a profile's own "torch_version" must
// agree with it. Missing or inconsistent fields throw InputError
// "SOURCE: /pointer: what".
ReleaseSpec read_release_profile(const nlohmann::ordered_json& profile, const std::string& source,
                                 const std::string& pointer, std::string_view torch_version = {});
// A stand-alone profile document (JSON text).
ReleaseSpec parse_release_profile(std::string_view text, const std::string& source);

// "2.14.1+debian" -> "2.14"; "" when the text does not start MAJOR.MINOR.
std::string major_minor(std::string_view version);

}  // namespace dispatchctl
