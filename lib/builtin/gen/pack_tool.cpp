// Build-time tool: parses a release's dump (lib/builtin/data/torch-VERSION/)
// and fallbacks.json with the text loaders and writes its pack (lib/builtin/pack.h), which the
// binary embeds. Parsing here, once, is what makes start-up cheap.
//   dispatchctl_pack DATA_DIR/torch-VERSION OUTPUT.pack
#include <cstdio>

#include "builtin/pack.h"
#include "keys/profile.h"
#include "registry/torch_dump.h"
#include "util/errors.h"
#include "util/file_io.h"

int main(int argc, char** argv) {
  using namespace dispatchctl;
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s DATA_DIR/torch-VERSION OUTPUT.pack\n", argv[0]);
    return 2;
  }
  try {
    const std::string dir = argv[1];
    const std::string profile_text = read_input_file(dir + "/profile.json");
    const Catalogue& cat = Catalogue::intern(parse_release_profile(profile_text, dir + "/profile.json"));
    Registry registry(cat, std::string(cat.spec().torch_version));
    import_torch_fallbacks(registry, read_input_file(dir + "/fallbacks.json"), dir + "/fallbacks.json");
    const std::string state = read_input_file(dir + "/registry_state.txt.gz");
    import_torch_state(registry, state, dir + "/registry_state.txt.gz");
    write_file_atomically(argv[2], write_pack(registry));
  } catch (const InputError& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
  return 0;
}
