#include "torchgen/generated_calls.h"

#include "torchgen/apply.h"

namespace dispatchctl::torchgen {

std::size_t record_generated_calls(Registry& registry, const Predictions& predictions) {
  const Catalogue& cat = registry.catalogue();
  std::size_t recorded = 0;
  for (const PredictedRegistration& r : predictions.registrations) {
    if (r.calls.empty()) continue;
    const Operator* op = registry.find(r.op);
    const auto key = cat.find(r.key);
    if (!op || !key) continue;
    // At one key, Register<Key>.cpp is the one Register file (RegisterCPU_0.cpp is a shard of it).
    const KernelGenerator generator = predicted_source(r.generator).generator;
    if (generator == KernelGenerator::Unknown) continue;
    for (const std::uint32_t i : op->kernels_at(*key)) {
      const Kernel& kernel = op->registrations[i];
      if (kernel.source.generator != generator) continue;
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
