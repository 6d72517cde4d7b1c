// Build-time tool: reads a built-in release profile with the one profile
// reader (keys/profile.h) and writes it as C++ (keys/profile_source.h), which
// the binary compiles in: start-up builds the spec from literals, no JSON.
//   dispatchctl_profile DATA_DIR/torch-VERSION/profile.json SOURCE_NAME FUNCTION OUTPUT.cpp
#include <cstdio>

#include "keys/profile.h"
#include "keys/profile_source.h"
#include "util/errors.h"
#include "util/file_io.h"

int main(int argc, char** argv) {
  using namespace dispatchctl;
  if (argc != 5) {
    std::fprintf(stderr, "usage: %s PROFILE.json SOURCE_NAME FUNCTION OUTPUT.cpp\n", argv[0]);
    return 2;
  }
  try {
    const std::string path = argv[1];
    // Named as the binary names it ("builtin:2.14.1"): errors found later
    // through the spec (Catalogue) say that, not a build directory.
    const ReleaseSpec spec = parse_release_profile(read_input_file(path), argv[2]);
    // The comment names the file from the source tree down (no build-machine paths).
    const size_t tree = path.rfind("lib/builtin/data/");
    write_file_atomically(argv[4], release_spec_source(spec, argv[3], path.substr(tree == std::string::npos ? 0 : tree)));
  } catch (const InputError& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
  return 0;
}
