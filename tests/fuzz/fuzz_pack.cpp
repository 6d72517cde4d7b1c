// libFuzzer target: the built-in pack reader (lib/builtin/pack.h), as
// `-m builtin:VERSION` runs it: load_pack, every table computed, every state
// printed, every recorded call decoded. A damaged pack must be an InputError,
// never a crash or a read out of bounds. The first byte picks the release (its
// catalogue); the pack starts at the second byte.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "builtin/pack.h"
#include "builtin/builtin_catalogues.h"
#include "table/torch_text.h"
#include "table/table.h"
#include "util/errors.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace dispatchctl;
  if (size == 0) return 0;
  const std::string version = (data[0] & 1) ? "1.13.1" : "2.14.1";
  const Catalogue& cat = *builtin_catalogue(version);
  const std::string_view pack(reinterpret_cast<const char*>(data) + 1, size - 1);
  try {
    Registry registry(cat, version);
    load_pack(registry, pack, "fuzz.pack");
    std::string out;
    for (const auto& op : registry.operators()) {
      append_torch_table(out, cat, compute_table(registry, op));
      append_torch_state(out, cat, op);
      // The recorded calls, decoded a section at a time when first asked for.
      for (const Kernel& k : op.registrations) {
        (void)registry.composite_calls(k);
        for (const Key kind : registry.composite_call_kinds()) (void)registry.kind_composite_calls(k, kind);
      }
    }
    (void)pack_operator_names(pack, "fuzz.pack");
  } catch (const InputError&) {
  }
  return 0;
}
