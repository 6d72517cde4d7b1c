// tools/autograd/deprecated.yaml: the Python signatures the bindings keep for
// old callers (`- name: addmm(Scalar beta, Tensor self, …) -> Tensor` with
// `aten: addmm(self, mat1, mat2, beta, 1)`), which gen_python_functions'
// load_deprecated_signatures joins with the operators of native_functions.yaml.
#pragma once

#include <vector>

#include "torchgen/inputs.h"
#include "torchgen/model.h"

namespace dispatchctl::torchgen {

// Its entries, in order. What torchgen refuses while reading one (no `name:`
// or `aten:`, a schema FunctionSchema.parse refuses) stops the reading as
// torchgen's does: TorchgenRefusal at the entry. A file that is not YAML is an
// InputError with file:line.
std::vector<DeprecatedSignature> parse_deprecated_yaml(const YamlSource& source);

}  // namespace dispatchctl::torchgen
