// Loading for `check`: like load/load_registry.h's load_registry, but what
// PyTorch refuses and what the loader rejects become findings, and loading
// goes on with the next file.
#pragma once

#include <map>
#include <optional>
#include <set>

#include <memory>
#include <string>
#include <vector>

#include "check/finding.h"
#include "check/lint_changes.h"
#include "load/load_registry.h"
#include "registry/registry.h"

namespace dispatchctl {

struct CheckLoad {
  std::unique_ptr<Registry> registry;  // null when nothing could be loaded
  std::vector<std::string> manifest_files;  // non-builtin sources that loaded at least in part
  // A first manifest file that is a whole registry (an export) with more
  // sources after it: the base, like a builtin: it is not what is checked.
  std::vector<std::string> base_files;
  std::vector<Finding> findings;            // severities still the rules' defaults
  std::vector<std::string> notes;           // the layering rule's (load/load_registry.h), for stderr
  // Sources (as given) that did not load, or loaded only in part: the registry
  // lacks what they would have changed, so comparing it with a base says nothing.
  std::vector<std::string> not_loaded;
  std::map<std::string, FormulaFact> formulas;  // by the entry's operator name
  // torchgen: sources read for a build without CUDA: the operators the YAML
  // gives a CUDA kernel (dense_kernels.h), which such a registry lacks.
  std::optional<std::set<std::string>> cuda_kernels_by_yaml;
};

// A first manifest file goes over its release's built-in registry as the
// loading layer's rule says (decide_layering, `--layer`), like every command.
CheckLoad load_for_check(const std::vector<std::string>& sources,
                         LoadRequest::Layering layering = LoadRequest::Layering::Auto);

// Fills line and column of findings in manifest files from their JSON
// pointers (util/json_locate.h); each file is read once.
void locate_findings(std::vector<Finding>& findings);

}  // namespace dispatchctl
