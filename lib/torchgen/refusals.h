// What real torchgen refuses in native_functions.yaml, tags.yaml,
// derivatives.yaml and deprecated.yaml (its asserts while parsing, grouping, generating variants,
// functionalization and tools/autograd's derivative loading), found in one
// pass over the model. Every command that reads the YAML calls it: `check`
// reports each refusal as rule torchgen-refusal, the others stop at the first
// with the same one line (InputError, exit 2). The kinds are data, one
// table (refusal_kinds(), refusal_kinds.cpp): the README's table lists them.
#pragma once

#include <string_view>
#include <vector>

#include "torchgen/model.h"
#include "torchgen/release_rules.h"
#include "util/errors.h"

namespace dispatchctl::torchgen {

// When a build raises a kind: torchgen.gen's four steps (it reads the YAML
// entry by entry, generates variants and checks the whole list, groups, and
// only then writes code), then gen_autograd, then the Python bindings. `show`
// names the refusal of the earliest stage, as a build stops there.
enum class RefusalStage {
  ReadingEntries,     // model.py's from_yaml / __post_init__, FunctionSchema, the yaml loader
  GeneratedVariants,  // native_function_generation.py, error_check_native_functions
  Groups,             // NativeFunctionsGroup, NativeFunctionsViewGroup, view_schema_kind
  WritingCode,        // the C++ API, kernels, functionalization
  Autograd,           // tools/autograd (gen_autograd)
  PythonBindings,     // gen_autograd_python
};

struct RefusalKind {
  std::string_view id;
  RefusalStage stage;
  std::string_view source;   // torchgen's file and function that asserts
  std::string_view summary;  // what torchgen refuses, in plain words
  std::string_view fix;      // the fix every refusal of this kind suggests
  bool stops_reading = false;  // torchgen's (and so dispatchctl's) reading of the YAML stops there
};
const std::vector<RefusalKind>& refusal_kinds();
const RefusalKind* refusal_kind(std::string_view id);  // nullptr for an unknown id

// model: parsed and with its generated variants (add_generated_functions).
// In YAML order of the entries they name; parse refusals first.
std::vector<Refusal> find_refusals(const TorchgenModel& model, const ReleaseRules& rules);

// Thrown by every loader of torchgen YAML for the first refusal: "FILE:LINE: reason; fix".
class TorchgenRefusal : public InputError {
 public:
  explicit TorchgenRefusal(const Refusal& r) : InputError(r.to_string()), refusal(r) {}
  Refusal refusal;
};
void refuse_if_any(const TorchgenModel& model, const ReleaseRules& rules);

}  // namespace dispatchctl::torchgen
