// Helpers of the torchgen tests: the real YAML inputs in tests/data.
#pragma once

#include <string>

#include "torchgen/apply.h"

namespace dispatchctl::test {

// tests/data/torch-VERSION/torchgen/ as read by `-m torchgen:`.
std::string torchgen_dir(const std::string& version);
torchgen::TorchgenInputs torchgen_inputs(const std::string& version);
// The predictions for a release's YAML, CPU-only build.
torchgen::Predictions predict_release(const std::string& version);

}  // namespace dispatchctl::test
