// `check` on torchgen's YAML: what torchgen itself refuses at parse time
// (NativeFunction.from_yaml, gen.py's error_check_native_functions,
// add_generated_native_functions), with its wording, at YAML file:line.
// Rule id "torchgen-refusal", also for torchgen's asserts that stop its reading
// (an illegal tag, an unknown dispatch key, a duplicate operator, an illegal
// schema: refusal_kinds() that stops_reading); a file that is not YAML is one "load-error".
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

#include "check/load.h"
#include "load/source_spec.h"
#include "registry/registry.h"

namespace dispatchctl::torchgen {

// For `check`: when SOURCE is `torchgen:PATH[?build-backends=…]` or
// `torchgen-backend:FILE`, lints it, layers it onto `load.registry` (the
// default release's empty registry when null) and adds its YAML files to
// `load.manifest_files` (the lint scope); a YAML that cannot be read (or that
// torchgen stops reading) is a finding, not an error, and the source goes to
// `load.not_loaded`. False for other sources.
bool load_torchgen_source_for_check(const SourceSpec& source, CheckLoad& load);

}  // namespace dispatchctl::torchgen
