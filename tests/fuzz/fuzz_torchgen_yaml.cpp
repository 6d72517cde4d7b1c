// libFuzzer target: torchgen's YAML readers. The input is a
// native_functions.yaml, optionally followed by a line "#derivatives" and a
// derivatives.yaml; it is parsed, its variants generated, its registrations
// predicted and applied to an empty 2.14.1 registry whose tables are all
// computed; then it is read as a backend YAML over that registry. InputError
// is the only allowed failure: anything else escaping would crash the CLI.
#include <cstddef>
#include <cstdint>
#include <string>

#include "table/table.h"
#include "builtin/builtin_catalogues.h"
#include "torchgen/apply.h"
#include "torchgen/backend_yaml.h"
#include "util/errors.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace dispatchctl;
  const std::string text(reinterpret_cast<const char*>(data), size);
  torchgen::TorchgenInputs inputs{{"fuzz.yaml", text}, std::nullopt, std::nullopt};
  if (const size_t split = text.find("\n#derivatives\n"); split != std::string::npos) {
    inputs.native_functions.text = text.substr(0, split);
    inputs.derivatives = torchgen::YamlSource{"fuzz_derivatives.yaml", text.substr(split + 14)};
  }
  Registry registry(*builtin_catalogue("2.14.1"), "2.14.1");
  try {
    torchgen::apply_torchgen(registry, inputs, {});
    for (const auto& op : registry.operators()) (void)compute_table(registry, op);
  } catch (const InputError&) {
  }
  try {
    torchgen::apply_backend_yaml(registry, {"fuzz_backend.yaml", text});
  } catch (const InputError&) {
  }
  return 0;
}
