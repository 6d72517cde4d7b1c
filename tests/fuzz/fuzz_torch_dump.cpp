// libFuzzer target: the torch-dump importer, exactly as `import torch-dump`
// runs it: import_torch_dump (import_torch_fallbacks + import_torch_state),
// every table computed, the manifest written. An input holding a line
// "%%FALLBACKS%%" is split there: the rest is the fallbacks JSON.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "registry/manifest.h"
#include "load/load_registry.h"
#include "table/table.h"
#include "util/errors.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace dispatchctl;
  std::string_view state(reinterpret_cast<const char*>(data), size), fallbacks;
  constexpr std::string_view k_split = "\n%%FALLBACKS%%\n";
  if (auto at = state.find(k_split); at != std::string_view::npos) {
    fallbacks = state.substr(at + k_split.size());
    state = state.substr(0, at);
  }
  // The first byte picks the release so both catalogues are exercised.
  const char* version = (size > 0 && (data[0] & 1)) ? "1.13.1" : "2.14.1";
  try {
    auto registry = import_torch_dump(version, state, "fuzz.txt", fallbacks, "fuzz.json");
    for (const auto& op : registry->operators()) (void)compute_table(*registry, op);
    (void)write_manifest(*registry, version);
  } catch (const InputError&) {
  }
  return 0;
}
