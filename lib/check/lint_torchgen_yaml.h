// `check` on torchgen's YAML: what torchgen itself refuses at parse time
// (NativeFunction.from_yaml, gen.py's error_check_native_functions,
// add_generated_native_functions), with its wording, at YAML file:line.
// Rule id "torchgen-refusal"; a YAML that cannot be read is one "load-error".
#pragma once

#include <vector>

#include "check/finding.h"
#include "keys/catalogue.h"
#include "torchgen/inputs.h"

namespace dispatchctl::torchgen {

std::vector<Finding> lint_torchgen_yaml(const TorchgenInputs& inputs, const Catalogue& catalogue);

}  // namespace dispatchctl::torchgen

#include <memory>
#include <string>

#include "registry/registry.h"

namespace dispatchctl::torchgen {

// For `check`: when SOURCE is `torchgen:PATH` or `torchgen-backend:FILE`, lints
// it, layers it onto `registry` (the default release's empty registry when
// null) and adds its YAML files to `files` (the lint scope); a YAML that
// cannot be read is a finding, not an error. False for other sources.
bool load_torchgen_source_for_check(const std::string& source, std::unique_ptr<Registry>& registry,
                                    std::vector<Finding>& findings, std::vector<std::string>& files);

}  // namespace dispatchctl::torchgen
