// libFuzzer target: the manifest loader. read_manifest + apply_manifest on a
// fresh Registry, then every table computed and the registry written back
// out (what `show -m FILE` and `import` do with it). InputError is the only
// allowed failure: anything else escaping would crash the CLI.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "registry/manifest.h"
#include "builtin/builtin_catalogues.h"
#include "table/table.h"
#include "util/errors.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace dispatchctl;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    ManifestDocument manifest = read_manifest(text, "fuzz.json", {dispatchctl::builtin_releases()});
    Registry registry(*manifest.catalogue, manifest.torch_version);  // its release profile, or a built-in one
    apply_manifest(registry, manifest);
    for (const auto& op : registry.operators()) (void)compute_table(registry, op);
    (void)write_manifest(registry, manifest.torch_version);
  } catch (const InputError&) {
  }
  return 0;
}
