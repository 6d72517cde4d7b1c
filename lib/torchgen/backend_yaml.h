// An out-of-tree backend's YAML in the format of torchgen's
// gen_backend_stubs.py (xla_native_functions.yaml: backend, cpp_namespace,
// class_name, supported, autograd, full_codegen, ir_gen, symint …): what
// RegisterDispatchKey generates for it — every `supported` and
// `full_codegen` op at the backend key, every `autograd` op at
// Autograd<backend>.
#pragma once

#include <string>
#include <vector>

#include "registry/registry.h"
#include "registry/torch_dump.h"
#include "torchgen/inputs.h"
#include "torchgen/predict.h"

namespace dispatchctl::torchgen {

constexpr std::string_view k_torchgen_backend_prefix = "torchgen-backend:";

// The registrations, checked against the operators of `registry` as
// gen_backend_stubs checks them against native_functions.yaml; InputError
// with file:line and gen_backend_stubs' wording otherwise.
// Operators `only` rejects are skipped unchecked (the registry was loaded without them).
std::vector<PredictedRegistration> parse_backend_yaml(const YamlSource& source, const Registry& registry,
                                                      const OperatorFilter& only = {});
// Adds them to the registry (after what it holds, as a library loaded later).
void apply_backend_yaml(Registry& registry, const YamlSource& source, const OperatorFilter& only = {});

}  // namespace dispatchctl::torchgen
