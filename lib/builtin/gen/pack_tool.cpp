// Build-time tool: parses a release's dump (lib/builtin/data/torch-VERSION/)
// and fallbacks.json with the text loaders and writes its pack (lib/builtin/pack.h), which the
// binary embeds. Parsing here, once, is what makes start-up cheap. With the
// release's torchgen YAML (TORCHGEN_DIR), the pack also records what its
// generated composite kernels call (torchgen/generated_calls.h) and, with its
// derivatives.yaml (in TORCHGEN_DIR or given as DERIVATIVES_YAML), what the
// generated autograd kernels of out= operators check (torchgen/out_grad_checks.h).
// With DATA_DIR/torch-VERSION/composite_calls.json.gz, what its hand-written
// composites call (docs/composite-calls.md).
//   dispatchctl_pack DATA_DIR/torch-VERSION OUTPUT.pack [TORCHGEN_DIR [DERIVATIVES_YAML]]
#include <cstdio>
#include <filesystem>

#include "builtin/builtin.h"
#include "builtin/pack.h"
#include "keys/profile.h"
#include "registry/composite_calls.h"
#include "registry/torch_dump.h"
#include "torchgen/generated_calls.h"
#include "torchgen/out_grad_checks.h"
#include "util/errors.h"
#include "util/file_io.h"

namespace dispatchctl {
// The tool makes built-in registries, so it has none (as dispatchctl_predict).
const std::vector<BuiltinRegistry>& builtin_registries() {
  static const std::vector<BuiltinRegistry> none;
  return none;
}
}  // namespace dispatchctl

int main(int argc, char** argv) {
  using namespace dispatchctl;
  if (argc < 3 || argc > 5) {
    std::fprintf(stderr, "usage: %s DATA_DIR/torch-VERSION OUTPUT.pack [TORCHGEN_DIR [DERIVATIVES_YAML]]\n", argv[0]);
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
    if (argc >= 4) {
      torchgen::TorchgenInputs inputs = torchgen::read_torchgen_inputs(argv[3]);
      const std::size_t calls = torchgen::record_generated_calls(registry, inputs);
      std::printf("%s: %zu generated composite kernels call another operator\n", dir.c_str(), calls);
      if (argc == 5) inputs.derivatives = torchgen::YamlSource{argv[4], read_input_file(argv[4])};
      const std::size_t checks = torchgen::record_out_grad_checks(registry, inputs);
      std::printf("%s: %zu generated autograd kernels of out= operators refuse arguments that require grad\n",
                  dir.c_str(), checks);
    }
    // What the release's hand-written composites call, recorded from it (docs/composite-calls.md).
    if (const std::string calls = dir + "/composite_calls.json.gz"; std::filesystem::exists(calls)) {
      const std::size_t kernels = apply_composite_calls_text(registry, read_input_file(calls), calls);
      std::printf("%s: %zu hand-written composite kernels with recorded calls\n", dir.c_str(), kernels);
    }
    write_file_atomically(argv[2], write_pack(registry));
  } catch (const InputError& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
  return 0;
}
