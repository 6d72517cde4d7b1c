// --ops-from, --opset and --exact: the operators a backend tracks, shared by
// report, query, explain --key and check.
#include <algorithm>

#include "common.h"
#include "load/operator_set.h"
#include "registry/op_select.h"
#include "util/errors.h"
#include "util/log.h"

namespace dispatchctl::cli {

void add_operator_set_options(CLI::App* command, OperatorSetOptions& options) {
  command
      ->add_option("--ops-from", options.ops_from,
                   "Only the operators FILE lists: exact overload names, one a line (aten::addmm is the default "
                   "overload only); tools/record-model-ops.py records a model's")
      ->type_name("FILE");
  command
      ->add_option("--opset", options.opset,
                   "Only the operators the release tags NAME in native_functions.yaml: core (PyTorch's core ATen "
                   "opset)")
      ->type_name("NAME");
  command->add_flag("--exact", options.exact,
                    "--op names are exact overloads: a bare name (aten::addmm) is the default overload only, not "
                    "every overload");
}

std::vector<std::string> op_patterns_of(const OperatorSetOptions& options, const std::vector<std::string>& ops) {
  if (!options.exact) return ops;
  std::vector<std::string> out;
  for (const std::string& p : ops) out.push_back(is_glob(p) ? p : exact_pattern(canonical_op_pattern(p)));
  return out;
}

OperatorScope operator_scope(const Registry& registry, const OperatorSetOptions& options,
                             const std::vector<std::string>& op_patterns) {
  OperatorScope scope;
  scope.patterns = op_patterns_of(options, op_patterns);
  if (!options.given()) return scope;
  if (!options.ops_from.empty() && !options.opset.empty())
    throw InputError("--ops-from and --opset each name the operators to look at; give one of them");
  const OperatorSet set = options.opset.empty() ? read_operator_list(options.ops_from)
                                                : builtin_operator_set(registry.torch_version(), options.opset);
  OperatorSetInRegistry found = find_operator_set(registry, set);
  if (const std::string note = absent_operators_note(registry, set, found.absent); !note.empty())
    log_note("{}", note);
  if (!scope.patterns.empty()) {
    // --op narrows the set: its names that some pattern matches.
    (void)select_operators(registry, scope.patterns);  // a typo is exit 2 with did-you-mean
    std::vector<std::string> kept;
    for (const std::string& exact : found.patterns) {
      const Operator* op = registry.find(exact.ends_with(".default") ? exact.substr(0, exact.size() - 8) : exact);
      if (op && std::any_of(scope.patterns.begin(), scope.patterns.end(),
                            [&](const std::string& p) { return op_matches(p, op->name); }))
        kept.push_back(exact);
    }
    if (kept.empty())
      throw InputError("no operator of " + set.label + " matches --op " + join(op_patterns, " --op "));
    found.patterns = std::move(kept);
  }
  if (found.patterns.empty())
    throw InputError("no operator of " + set.label + " is in the registry; is it the release the list was recorded with?");
  scope.label = set.label + " (" + std::to_string(found.patterns.size()) + " operator" +
                (found.patterns.size() == 1 ? "" : "s") + ")";
  scope.patterns = std::move(found.patterns);
  return scope;
}

}  // namespace dispatchctl::cli
