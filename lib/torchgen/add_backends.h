// A build with more backends than a real registry's (issue 23): the CUDA
// build of a release predicted from its CPU-only build. What a build's
// backends change is only the Register<Key>.cpp files of their keys, so the
// real registry stays as it is and torchgen's registrations at those keys are
// added, each saying it is predicted and from which YAML line and rule.
#pragma once

#include <set>
#include <string>

#include "registry/registry.h"
#include "torchgen/inputs.h"

namespace dispatchctl::torchgen {

// Adds to `registry` the registrations torchgen makes at the keys `added`
// backends compile (release rules' backend_keys), predicted for a build of
// `build_backends` from `inputs`. Returns how many were added.
std::size_t add_backend_predictions(Registry& registry, const TorchgenInputs& inputs,
                                    const std::set<std::string>& build_backends,
                                    const std::set<std::string>& added);

// "registered at RegisterCUDA.cpp [predicted: torchgen RULE, native_functions.yaml:LINE]"
std::string predicted_debug_text(const std::string& generator, const std::string& rule, const std::string& file,
                                 int line);

}  // namespace dispatchctl::torchgen
