// Why one row of an operator's dispatch table came out as it did: every rule
// of docs/dispatch-semantics.md §3.2 in order with its outcome, read from the
// record compute_row keeps (table/table.h), plus what PyTorch does with the
// row at call time and, for missing rows, what would fill it.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "table/needs.h"

#include "table/table.h"

namespace dispatchctl {

// One rule of §3.2 as it applied to this row.
struct RuleOutcome {
  enum class Status {
    NotApplicable,   // the key is not in the rule's alias set
    NoRegistration,  // nothing registered where the rule looks
    Blocked,         // a registration exists but other kernels keep it away (CIA)
    Chosen,          // this rule filled the row
    Shadowed,        // a registration exists but an earlier rule won
    NotReached,      // after the chosen rule, nothing registered there
    NotInRelease,    // the release has no such alias key (1.13 has no FuncTorchBatchedDecomposition)
    Yes,             // step 4 (a check, fills no row): a backend kernel keeps CompositeImplicitAutograd away
    No,              // step 4: no backend kernel, CompositeImplicitAutograd may fill the row
  };
  // The step number as printed, 1 … 10; the same numbers as the README's
  // "How a row is computed" and docs/dispatch-semantics.md §3.2. Every step is
  // listed for every release (missing aliases as not_in_release), so the
  // numbers run without gaps; 10 (missing) only when nothing filled the row.
  int step = 0;
  Rule rule;     // AmbiguousAutogradOther is step 6's ambiguous outcome; step 4 carries CompositeImplicitAutograd
  Status status;
  std::string reason;         // one sentence
  std::vector<Key> blockers;  // Blocked, or the autogradother kernels of an ambiguous row, or step 4's kernels
  std::string label;          // "direct registration", "CompositeExplicitAutograd", "backend kernel check", …
};

// A registration that would change a row that is missing or raises.
struct Fix {
  enum class Kind { Kernel, BackendFallback };
  Kind kind = Kind::Kernel;
  Key key = k_undefined;   // where to register
  bool fills = false;      // the row would then hold a working kernel
  Rule result = Rule::Missing;  // the rule that would then fill the row
  std::vector<Key> also_fills;    // other rows of the operator it fills (missing/raising now)
  std::vector<Key> also_changes;  // working rows of the operator whose kernel it replaces
};

struct RowExplanation {
  Key key = k_undefined;  // the runtime key
  Row row;
  bool raises = false;  // the kernel is known to raise when called
  std::vector<RuleOutcome> rules;
  std::vector<const Kernel*> inactive;  // overridden registrations where the kernel sits
  std::vector<std::string> notes;       // quirks and call-time consequences
  // PyTorch's live row differs from the recomputed one (§3.3): calls run `live`.
  bool stale = false;
  Row live;
  // [quirk] Autograd{HIP,VE,MTIA}: the backend kernel that does not block CIA here (§3.2).
  Key unblocked_backend = k_undefined;
  // Missing (or raising) rows only:
  std::string error;           // the error PyTorch raises at call time (§4.3), missing rows
  std::vector<Key> available;  // the keys listed in that error (valid live rows)
  std::vector<Fix> fixes;
};

struct OperatorKeyExplanation {
  const Operator* op = nullptr;
  Key requested = k_undefined;  // as named: runtime key, alias or building block
  std::vector<RowExplanation> rows;  // one, or every runtime key the alias/block covers
  // A backend's runtime key: what to implement there, forward and backward (table/needs.h).
  std::optional<OperatorNeeds> needs;
};

// "direct registration", "CompositeExplicitAutograd", "backend fallback", …
// (alias rules by PyTorch's key name, whether or not the release has the key).
std::string rule_label(Rule rule);

// `with_fixes`: simulate the registrations that would fill a missing or
// raising row (costs a small scratch registry per candidate).
RowExplanation explain_row(const Registry& registry, const Operator& op, Key k, bool with_fixes);
// A runtime key: one row with fixes; an alias key or a building block: every
// runtime key it covers, without fixes.
OperatorKeyExplanation explain_operator_key(const Registry& registry, const Operator& op, Key k);

}  // namespace dispatchctl
