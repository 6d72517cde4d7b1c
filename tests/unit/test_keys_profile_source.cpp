// The built-in profiles compiled to C++ (keys/profile_source.h) are what the
// one profile reader reads from lib/builtin/data, field for field.
#include <doctest/doctest.h>

#include "builtin/builtin.h"
#include "builtin/builtin_catalogues.h"
#include "keys/catalogue.h"
#include "keys/profile.h"
#include "keys/profile_source.h"
#include "util/file_io.h"

using namespace dispatchctl;

namespace dispatchctl {
ReleaseSpec escapes_profile();  // tests/manifests/profile/escapes.json, compiled by tests/CMakeLists.txt
}

namespace {
// Every field, as text: two specs are equal when their sources are.
std::string fields(const ReleaseSpec& spec) { return release_spec_source(spec, "f", "x"); }
}  // namespace

TEST_CASE("profile source: each built-in profile is its profile.json as the reader reads it") {
  REQUIRE(builtin_registries().size() >= 2);
  for (const auto& builtin : builtin_registries()) {
    CAPTURE(builtin.version);
    if (!builtin.predicted_from.empty()) continue;  // a predicted registry has its base's profile
    const std::string path =
        std::string(DISPATCHCTL_SOURCE_DIR) + "/lib/builtin/data/torch-" + std::string(builtin.version) + "/profile.json";
    const ReleaseSpec read = parse_release_profile(read_input_file(path), "builtin:" + std::string(builtin.version));
    const ReleaseSpec compiled = builtin.profile();
    CHECK(compiled.torch_version == builtin.release);
    CHECK(compiled.arena.empty());  // views into literals, nothing copied at start-up
    CHECK(fields(compiled) == fields(read));
    // And the catalogue a command gets is built from it.
    CHECK(builtin_catalogue(builtin.version)->spec().enum_names == read.enum_names);
  }
}

TEST_CASE("profile source: quotes, backslashes, control bytes, trigraphs and UTF-8 survive the compiler") {
  const std::string path = std::string(DISPATCHCTL_SOURCE_DIR) + "/tests/manifests/profile/escapes.json";
  const ReleaseSpec read = parse_release_profile(read_input_file(path), "escapes.json");
  const ReleaseSpec compiled = escapes_profile();
  CHECK(compiled.reference_build == read.reference_build);
  CHECK(compiled.reference_build ==
        std::string_view("2.14.1 \"quoted\" \\ back\\slash\nnew line\ttab ?\?= trigraph \xc3\xa9\xe2\x80\xa6 \x01"
                         "7"));
  CHECK(compiled.meta_fallback_error == read.meta_fallback_error);
  CHECK(fields(compiled) == fields(read));
}

TEST_CASE("profile source: literals use three-digit octal escapes") {
  ReleaseSpec spec;
  spec.version = "\n1";  // a digit after an escape must not extend it
  const std::string text = release_spec_source(spec, "g", "here");
  CHECK(text.find("s.version = \"\\0121\"sv;") != std::string::npos);
  CHECK(text.find("ReleaseSpec g() {") != std::string::npos);
  CHECK(text.find("from here") != std::string::npos);
}
