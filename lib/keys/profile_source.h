// A release profile as C++ source: the build-time form of the built-in
// profiles. lib/builtin/gen/profile_tool.cpp reads each built-in profile.json
// with the one profile reader (keys/profile.h) and writes it with
// release_spec_source, so the binary builds its ReleaseSpec from literals at
// start-up instead of parsing JSON (issue 14: that parse was half of
// `show aten::add`).
#pragma once

#include <string>
#include <string_view>

#include "keys/release_spec.h"

namespace dispatchctl {

// A C++ translation unit defining `dispatchctl::ReleaseSpec FUNCTION()`,
// which returns a spec equal to `spec` field by field; its views point into
// string literals (the arena stays empty).
std::string release_spec_source(const ReleaseSpec& spec, std::string_view function,
                                std::string_view generated_from);

}  // namespace dispatchctl
