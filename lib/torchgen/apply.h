// Layering torchgen's predictions over a registry (issue 12): the
// predictions replace the base's codegen registrations and schemas, and its
// hand-written C++ and Python registrations stay, after the codegen ones as
// in PyTorch (codegen libraries load first).
#pragma once

#include <set>
#include <string>

#include "registry/registry.h"
#include "torchgen/inputs.h"
#include "torchgen/predict.h"

namespace dispatchctl::torchgen {

constexpr std::string_view k_torchgen_prefix = "torchgen:";

struct TorchgenOptions {
  std::set<std::string> build_backends = {"CPU"};
};

// Everything torchgen would generate for these inputs (parse, O2, predict).
Predictions predict_from_inputs(const TorchgenInputs& inputs, const Catalogue& catalogue,
                                const TorchgenOptions& options);
// base_or_empty: a registry of the same release (its codegen registrations
// are replaced) or an empty one (the predictions alone). When options'
// build backends add backends the base has no codegen registrations for (a
// CUDA build over a CPU-only export), the base is kept and only the added
// backends' registrations are added (add_backends.h), with a note.
void apply_torchgen(Registry& base_or_empty, const TorchgenInputs& inputs, const TorchgenOptions& options);
// "CPU,CUDA" -> {"CPU","CUDA"}; InputError naming the known backends.
std::set<std::string> parse_build_backends(const std::string& list, const std::string& release);

}  // namespace dispatchctl::torchgen
