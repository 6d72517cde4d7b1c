// One operator's dispatch table computed as OperatorEntry::
// computeDispatchTableEntryWithDebug does (docs/dispatch-semantics.md §3.2),
// with provenance on every row and, on request, the record of every rule
// tried (ninja's Explanations idea: record why while computing).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "registry/registry.h"

namespace dispatchctl {

// The rules of §3.2 in the order they are tried; the first that applies fills the row.
enum class Rule : std::uint8_t {
  Direct,                  // [kernel]
  CompositeExplicitAutogradNonFunctional,  // [default backend kernel]
  CompositeExplicitAutograd,               // [default backend kernel]
  CompositeImplicitAutogradNestedTensor,   // [nested kernel]
  CompositeImplicitAutograd,               // [math kernel]
  AmbiguousAutogradOther,  // [ambiguous autogradother]
  Autograd,                // [autograd kernel]
  FuncTorchBatchedDecomposition,  // [batched kernel]
  BackendFallback,         // [backend fallback]
  Missing,                 // no kernel; not printed by PyTorch
};

// PyTorch's tag text, e.g. "math kernel".
std::string_view tag_text(Rule rule);
// Stable identifier for JSON, e.g. "math_kernel".
std::string_view tag_id(Rule rule);
// The alias a rule reads (Direct/BackendFallback/Missing: none).
std::optional<Alias> alias_of_rule(Rule rule);

struct Row {
  Key key = k_undefined;
  Rule rule = Rule::Missing;
  const Kernel* kernel = nullptr;      // the kernel registered at `provider`, or the ambiguous one
  const Fallback* fallback = nullptr;  // set for Rule::BackendFallback
  Key provider = k_undefined;          // key the registration sits at (alias key for alias rules)

  bool valid() const { return rule != Rule::Missing; }
  bool fallthrough() const { return fallback ? fallback->fallthrough : kernel && kernel->fallthrough; }
  std::string_view debug() const {
    if (fallback) return fallback->debug;
    return kernel ? std::string_view(kernel->debug) : std::string_view();
  }
};

// Why a row came out as it did: one step per rule of §3.2, in order.
struct Explanation {
  enum class StepResult { NotApplicable, NoRegistration, Blocked, Chosen };
  struct Step {
    Rule rule;
    StepResult outcome;
    std::string reason;       // a sentence, e.g. "CPU is not in the CompositeExplicitAutograd set"
    std::vector<Key> blockers;  // registrations that blocked this rule (Blocked only)
  };
  std::vector<Step> steps;
};

// The kernel PyTorch installs on an ambiguous AutogradOther row.
const Kernel& ambiguous_autogradother_kernel();

Row compute_row(const Registry& registry, const Operator& op, Key k, Explanation* why = nullptr);
// Every runtime key in table order (Undefined first), missing rows included.
std::vector<Row> compute_table(const Registry& registry, const Operator& op);
// The same into `rows` (resized): a caller going through many operators
// reuses one buffer instead of allocating a table per operator.
void compute_table(const Registry& registry, const Operator& op, std::vector<Row>& rows);

struct KeyMasks;
// The tables of many operators of one registry (the whole-registry job):
// the rows no registration reaches (backend fallback or nothing) are worked
// out once, so an operator costs only the rows its kernels reach. The
// registry must not gain fallbacks while this is in use.
class TableComputer {
 public:
  explicit TableComputer(const Registry& registry);
  // `op`'s table, as compute_table gives it; valid until the next call.
  const std::vector<Row>& compute(const Operator& op);

 private:
  const KeyMasks* masks_;
  std::vector<Row> unreached_;  // every row of an operator with no kernels
  std::vector<Row> rows_;
};

}  // namespace dispatchctl
