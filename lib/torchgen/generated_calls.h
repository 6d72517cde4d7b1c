// What torchgen's generated composite kernels call (registry.h GeneratedCall),
// recorded on a registry whose kernels came from PyTorch's dump: the YAML's
// predictions say which registrations are generated composites and what each
// calls (predict_backend.cpp: structured-ceanf, generated-cea); the dump's
// kernel is the one registered from the file the prediction names.
#pragma once

#include <cstddef>

#include "registry/registry.h"
#include "torchgen/inputs.h"
#include "torchgen/predict.h"

namespace dispatchctl::torchgen {

// For each prediction that calls an operator, every kernel of its operator at
// its key that the prediction's generator wrote (Register<Key>[_N].cpp; Kernel::source); returns how many kernels were given a call.
std::size_t record_generated_calls(Registry& registry, const Predictions& predictions);
// The same from the release's YAML (predicted for a CPU build: the composite
// keys are compiled in every build).
std::size_t record_generated_calls(Registry& registry, const TorchgenInputs& inputs);

}  // namespace dispatchctl::torchgen
