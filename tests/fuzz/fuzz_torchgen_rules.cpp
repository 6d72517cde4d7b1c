// libFuzzer target: torchgen's per-release rules reader (torchgen/release_rules.h).
// Input = one rules file; anything but a valid one must be an InputError.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "torchgen/release_rules.h"
#include "util/errors.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace dispatchctl;
  try {
    (void)torchgen::read_release_rules(std::string_view(reinterpret_cast<const char*>(data), size), "fuzz.json");
  } catch (const InputError&) {
  }
  return 0;
}
