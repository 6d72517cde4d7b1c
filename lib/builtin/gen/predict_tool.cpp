// Build-time tool: a predicted built-in registry (lib/builtin/data/torch-NAME/
// predict.json, read by lib/CMakeLists.txt). From a real build's dump (BASE),
// a build with more backends is predicted: the real registry as it is, plus
// what torchgen generates at the keys of the ADDED backends from YAML (a
// build of BUILD_BACKENDS), plus the hand-written registrations another real
// build (CARRY) makes at those backends' keys, for the operators BASE has.
// Every predicted registration's debug text says it is predicted and from
// where; origins keep no line (there is no dump of this build to point into).
//   dispatchctl_predict BASE_DIR YAML BUILD_BACKENDS ADDED_BACKENDS CARRY_DIR OUTPUT.pack
#include <cstdio>
#include <filesystem>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "builtin/builtin.h"
#include "builtin/pack.h"
#include "keys/profile.h"
#include "registry/composite_calls.h"
#include "registry/torch_dump.h"
#include "torchgen/add_backends.h"
#include "torchgen/generated_calls.h"
#include "torchgen/inputs.h"
#include "torchgen/predict.h"
#include "util/errors.h"
#include "util/file_io.h"
#include "util/split_list.h"

namespace dispatchctl {
// The tool makes built-in registries, so it has none (as dispatchctl_pack).
const std::vector<BuiltinRegistry>& builtin_registries() {
  static const std::vector<BuiltinRegistry> none;
  return none;
}

namespace {

Registry load_dump(const std::string& dir) {
  const Catalogue& cat =
      Catalogue::intern(parse_release_profile(read_input_file(dir + "/profile.json"), dir + "/profile.json"));
  Registry registry(cat, std::string(cat.spec().torch_version));
  registry.check_signatures = false;  // what PyTorch printed, it accepted
  import_torch_fallbacks(registry, read_input_file(dir + "/fallbacks.json"), dir + "/fallbacks.json");
  import_torch_state(registry, read_input_file(dir + "/registry_state.txt.gz"), dir + "/registry_state.txt.gz");
  // The predicted build takes the base release's recorded composite calls (docs/composite-calls.md).
  if (const std::string calls = dir + "/composite_calls.json.gz"; std::filesystem::exists(calls))
    apply_composite_calls_text(registry, read_input_file(calls), calls);
  return registry;
}

std::string_view file_of(std::string_view debug) {  // "registered at FILE:LINE" -> FILE
  const std::string_view file = kernel_place(debug).file;
  return file.empty() ? debug : file;
}

// A key belongs to a backend when it is one of its per-backend keys (CUDA,
// SparseCUDA, AutogradCUDA …) or its autocast key (AutocastCUDA).
bool key_of_backends(const Catalogue& cat, Key k, const std::set<std::string>& backends) {
  const int backend = cat.is_alias(k) ? 0 : cat.backend_of(k);
  if (backend > 0 && backends.count(std::string(cat.spec().backends[backend - 1]))) return true;
  for (const auto& [b, autocast] : cat.spec().autocast_key_of_backend)
    if (backends.count(std::string(b)) && autocast == cat.name(k)) return true;
  return false;
}

// `base` with every origin's line dropped and CARRY's hand-written
// registrations at the added backends' keys appended.
Registry with_carried(const Registry& base, const Registry& carry, const std::string& carry_build,
                      const std::set<std::string>& added, std::size_t& carried) {
  const Catalogue& cat = base.catalogue();
  const std::string note = " (predicted: carried from the " + std::string(carry.catalogue().spec().torch_version) +
                           " " + carry_build + " build)";
  Registry out(cat, base.torch_version());
  out.check_signatures = false;
  out.carry_registry_tables(base);
  for (Fallback fb : base.fallbacks()) {
    fb.origin = Origin{};
    out.fallback(fb);
  }
  for (const Operator& op : base.operators()) {
    if (op.schema) {
      Schema s = *op.schema;
      s.origin = Origin{};
      out.define(op.name, s);
    } else {
      out.declare(op.name);
    }
    for (const Kernel& was : op.registrations) {
      Kernel k = was;
      k.origin = Origin{};
      out.impl_carried(base, was, op.name, k, false);  // generated calls are recorded again below
    }
    const Operator* other = carry.find(op.name);
    if (!other) continue;
    for (const Kernel& c : other->registrations) {
      if (c.source.built_by_torchgen()) continue;
      const auto key = cat.find(carry.catalogue().name(c.key));
      if (!key || !key_of_backends(carry.catalogue(), c.key, added)) continue;
      bool known = false;  // the base build registers it already
      for (const Kernel& b : op.registrations) known = known || (b.key == *key && file_of(b.debug) == file_of(c.debug));
      if (known) continue;
      Kernel k = c;
      k.key = *key;
      k.origin = Origin{};
      k.debug = out.keep(std::string(c.debug) + note);
      out.impl(op.name, k);
      ++carried;
    }
  }
  return out;
}

}  // namespace
}  // namespace dispatchctl

int main(int argc, char** argv) {
  using namespace dispatchctl;
  if (argc != 7) {
    std::fprintf(stderr, "usage: %s BASE_DIR YAML BUILD_BACKENDS ADDED_BACKENDS CARRY_DIR OUTPUT.pack\n", argv[0]);
    return 2;
  }
  try {
    Registry base = load_dump(argv[1]);
    const auto build_list = split_list(argv[3], "build_backends");
    const auto added_list = split_list(argv[4], "added_backends");
    const std::set<std::string> build(build_list.begin(), build_list.end());
    const std::set<std::string> added(added_list.begin(), added_list.end());
    const std::size_t generated =
        torchgen::add_backend_predictions(base, torchgen::read_torchgen_inputs(argv[2]), build, added);
    const Registry carry = load_dump(argv[5]);
    std::size_t carried = 0;
    // Which build CARRY is, as its profile says (read again: the profile reader keeps no "build").
    const auto profile = nlohmann::json::parse(read_input_file(std::string(argv[5]) + "/profile.json"));
    Registry predicted = with_carried(base, carry, profile.value("build", ""), added, carried);
    torchgen::record_generated_calls(predicted, torchgen::read_torchgen_inputs(argv[2]));
    write_file_atomically(argv[6], write_pack(predicted));
    std::printf("predicted: %zu registrations generated by torchgen, %zu carried from %s\n", generated, carried,
                argv[5]);
  } catch (const InputError& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
  return 0;
}
