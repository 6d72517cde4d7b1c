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
  // `check` reports the refusals itself and goes on with torchgen's reading
  // of the YAML; every other reader stops at the first (TorchgenRefusal).
  bool go_on_after_refusal = false;
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
// The two halves of apply_torchgen, for a caller that holds the parsed model
// (`check` finds the refusals on it first): model with its generated variants.
Predictions predict_from_model(const TorchgenModel& model, const ReleaseRules& rules, const TorchgenOptions& options);
void apply_predictions(Registry& base_or_empty, const Predictions& predictions,
                       const std::string& native_functions_path);
// "CPU,CUDA" -> {"CPU","CUDA"}; InputError naming the known backends.
std::set<std::string> parse_build_backends(const std::string& list, const std::string& release);

}  // namespace dispatchctl::torchgen
