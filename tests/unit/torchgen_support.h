// Helpers of the torchgen tests: the real YAML inputs in tests/data.
#pragma once

#include <map>
#include <set>
#include <string>

#include "torchgen/apply.h"

namespace dispatchctl::test {

// tests/data/torch-VERSION/torchgen/ as read by `-m torchgen:`.
std::string torchgen_dir(const std::string& version);
torchgen::TorchgenInputs torchgen_inputs(const std::string& version);
// The predictions for a release's YAML, CPU-only build.
torchgen::Predictions predict_release(const std::string& version);

}  // namespace dispatchctl::test

namespace dispatchctl::test {

// Predictions for a small native_functions.yaml text (and derivatives.yaml
// text when not empty), with the release's real tags.yaml.
torchgen::Predictions predict_yaml(const std::string& native_functions, const std::string& derivatives = "",
                                   const std::string& version = "2.14.1",
                                   const std::set<std::string>& backends = {"CPU"});
// key -> rule of one operator's predicted registrations ("aten::" added).
std::map<std::string, std::string> rules_of(const torchgen::Predictions& p, const std::string& op);

}  // namespace dispatchctl::test
