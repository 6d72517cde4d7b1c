#include "torchgen/generated_calls.h"

#include <cctype>

#include "torchgen/apply.h"

namespace dispatchctl::torchgen {

std::string_view generated_file_stem(std::string_view debug) {
  const size_t at = debug.find("registered at ");
  if (at == std::string_view::npos) return {};
  debug.remove_prefix(at + 14);
  debug = debug.substr(0, debug.find_first_of(": ["));
  if (const size_t slash = debug.rfind('/'); slash != std::string_view::npos) debug.remove_prefix(slash + 1);
  if (!debug.ends_with(".cpp")) return {};
  debug.remove_suffix(4);
  // A sharded file (RegisterCPU_0.cpp) is the same generator as RegisterCPU.cpp.
  size_t digits = debug.size();
  while (digits > 0 && std::isdigit(static_cast<unsigned char>(debug[digits - 1]))) --digits;
  if (digits < debug.size() && digits > 0 && debug[digits - 1] == '_') debug = debug.substr(0, digits - 1);
  return debug;
}

std::size_t record_generated_calls(Registry& registry, const Predictions& predictions) {
  const Catalogue& cat = registry.catalogue();
  std::size_t recorded = 0;
  for (const PredictedRegistration& r : predictions.registrations) {
    if (r.calls.empty()) continue;
    const Operator* op = registry.find(r.op);
    const auto key = cat.find(r.key);
    if (!op || !key) continue;
    const std::string generated = "registered at " + r.generator;  // the stem views it
    const std::string_view stem = generated_file_stem(generated);
    for (const std::uint32_t i : op->kernels_at(*key)) {
      const Kernel& kernel = op->registrations[i];
      if (generated_file_stem(kernel.debug) != stem) continue;
      registry.record_generated_call(kernel, r.calls, r.call_kind);
      ++recorded;
    }
  }
  return recorded;
}

std::size_t record_generated_calls(Registry& registry, const TorchgenInputs& inputs) {
  return record_generated_calls(registry, predict_from_inputs(inputs, registry.catalogue(), TorchgenOptions{}));
}

}  // namespace dispatchctl::torchgen
