// What a call that reaches a computed row runs, in one classification every
// command shares (report, explain --key, query, has-kernel --works, check,
// trace): the row's kernel by kind and language, with the release facts
// (does the Meta fallback raise, is the Autograd fallback the
// autograd-not-implemented one) read from the release profile only.
// "Working" is defined here once (README, "What working means").
#pragma once

#include <array>
#include <cstddef>
#include <functional>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "table/table.h"

namespace dispatchctl {

// The order is the legend's order: working outcomes first, then the others.
enum class Outcome : std::uint8_t {
  Direct,       // a C++ kernel registered at exactly this key
  Composite,    // a C++ kernel filled through an alias key (CompositeImplicitAutograd, Autograd …)
  Fallback,     // the key's backend fallback, a C++ one that runs
  Fallthrough,  // a fallthrough: a call skips this key
  Python,       // a kernel registered from Python: what it does is unknown to a table
  // A generated composite (Registry::generated_call) whose callee's row at the
  // key is a Python kernel: unknown, as that kernel is.
  CompositeUnknown,
  // The forward runs, backward cannot: torchgen's boxed autogradNotImplementedFallback()
  // kernels (VariableType, ":: (none) [ boxed ]") and the Autograd backend
  // fallback of releases whose profile gives its backward warning.
  AutogradNotImplemented,
  Raises,     // a kernel known to raise when called (a raising Meta fallback, a called fallthrough)
  Ambiguous,  // the ambiguous AutogradOther kernel: a call raises
  // A generated composite whose callee's row at the key does not work
  // (missing, raises, ambiguous, or itself such a composite): a call raises
  // there, e.g. add.Tensor at QuantizedCPU runs into aten::add.out's missing row.
  CompositeFails,
  Missing,    // no kernel: a call raises NotImplementedError
};
constexpr std::size_t k_outcome_count = static_cast<std::size_t>(Outcome::Missing) + 1;
constexpr Outcome k_all_outcomes[] = {
    Outcome::Direct,    Outcome::Composite, Outcome::Fallback,       Outcome::Fallthrough,
    Outcome::Python,    Outcome::CompositeUnknown, Outcome::AutogradNotImplemented, Outcome::Raises,
    Outcome::Ambiguous, Outcome::CompositeFails,   Outcome::Missing};
// Kept in step with the enum by hand: every outcome once, in its order.
static_assert(std::size(k_all_outcomes) == k_outcome_count);
static_assert([] {
  for (std::size_t i = 0; i < k_outcome_count; ++i)
    if (static_cast<std::size_t>(k_all_outcomes[i]) != i) return false;
  return true;
}());

// Operators per outcome (index: the Outcome), for one key.
using OutcomeCounts = std::array<std::size_t, k_outcome_count>;

// What an outcome says about a call that reaches the row.
enum class RowVerdict : std::uint8_t {
  Works,        // "working": runs C++ code that returns (or skips the key)
  Unknown,      // a Python kernel: never counted as working nor as failing
  ForwardOnly,  // autograd not implemented: the forward returns, backward raises or warns
  Fails,        // raises
};

std::string_view outcome_id(Outcome o);     // "direct", "autograd_not_implemented", … (JSON, --outcome)
std::string_view outcome_label(Outcome o);  // "C++ kernel", … (text, the page's legend)
RowVerdict outcome_verdict(Outcome o);
inline bool outcome_works(Outcome o) { return outcome_verdict(o) == RowVerdict::Works; }
std::string_view verdict_word(RowVerdict verdict);
// The operators of `counts` whose outcome works.
std::size_t working_count(const OutcomeCounts& counts);  // "works", "unknown", "forward_only", "fails"
// "direct" / "C++ kernel" / "cpp kernel" -> the outcome; nullopt otherwise.
std::optional<Outcome> find_outcome(std::string_view name);

// There is no public classifier of a row's kernel alone: every outcome a
// command shows follows what the kernel calls (OutcomeFollower below), and
// RowOutcome::kernel says what the kernel alone is where a caller needs it.

// The release's recorded calls of `kernel` that hold at key `k`
// (docs/composite-calls.md): the main recording at the dense key of the backend
// it was recorded on and its autograd key; a kind's recording at the kind's key
// (SparseCPU), and at the autograd key above a dense kind (CPU: AutogradCPU).
// nullptr: none holds there (unknown).
const CompositeCalls* recorded_calls_at(const Registry& registry, const Kernel& kernel, Key k);
// The recorded calls of `kernel` on tensors that carry `kind` (the runtime key
// of a kind of tensor: the main backend's dense key, SparseCPU …), whatever
// row the kernel fills for them (trace knows its tensors); nullptr: none.
const CompositeCalls* recorded_calls_on(const Registry& registry, const Kernel& kernel, Key kind);
// The main recording's kind: the dense key of the backend it was recorded on.
std::optional<Key> main_recording_kind(const Registry& registry);
// A key of the autograd functionality (AutogradCPU, AutogradOther, AutogradNestedTensor …).
bool is_autograd_row(const Catalogue& cat, Key k);
// A valid row whose kernel itself raises when called (Raises, Ambiguous):
// what trace and explain ask of the kernel that runs.
bool row_known_to_raise(const Catalogue& cat, const Row& row);
// The backend row an autograd row's kernel passes the call on to
// (AutogradPrivateUse1 -> PrivateUse1: VariableType, the autograd fallback, a
// fallthrough); nullopt for a row that decomposes (CompositeImplicitAutograd),
// a backend's own autograd kernel or a Python one (their code decides), and
// every other row. The follower's and table/needs.h's edge below.
std::optional<Key> key_below(const Catalogue& cat, const Row& row);

// What a row's kernel calls, followed at the same key: a generated
// composite's callee (Registry::generated_call), a hand-written composite's
// recorded callees (Registry::composite_calls, docs/composite-calls.md), or,
// for an autograd row that passes the call on, the same operator's row below
// it (AutogradPrivateUse1 -> PrivateUse1). The row's outcome is what they are.
enum class DependencyVia : std::uint8_t {
  GeneratedCall,  // torchgen's generated composite calls it
  RecordedCall,   // the hand-written composite calls it (recorded from the release)
  Below,          // the autograd kernel passes the call on to this row
};
struct Dependency {
  const Operator* op = nullptr;  // the operator called; nullptr: nothing followed
  GeneratedCallKind kind = GeneratedCallKind::StructuredOut;
  DependencyVia via = DependencyVia::GeneratedCall;
  Row row;                        // the callee's row (at the same key, or the backend key below)
  Outcome outcome = Outcome::Missing;  // that row's outcome, itself followed
};
struct RowOutcome {
  Outcome outcome = Outcome::Missing;
  // The row's kernel alone, before what it calls was followed (explain's
  // notes on the kernel itself: the raising Meta fallback, torchgen's
  // autograd-not-implemented kernel).
  Outcome kernel = Outcome::Missing;
  Dependency needs;
  // A hand-written composite whose calls were not recorded: counted as
  // working as before, but only assumed (what it calls is not known).
  bool assumed = false;
  // A recorded stub (Raises): PyTorch's message and exception type.
  std::string_view raises, raises_type;
};
// How the caller reads a row: compute_row (report, explain) or the live row (query, has-kernel, trace).
using RowOf = std::function<Row(const Operator&, Key)>;
// compute_row over `registry`: the RowOf of report, explain and diff.
RowOf computed_row_of(const Registry& registry);
// The row's kernel (RowOutcome::kernel), then what the row's kernel calls decides (Dependency): a
// callee that fails makes the row CompositeFails, one whose outcome is
// unknown (a Python kernel, a call that only some inputs make, a cycle)
// CompositeUnknown, a forward-only one AutogradNotImplemented; a recorded
// stub is Raises. Every command that counts outcomes classifies this way:
// the one public classifier. An OutcomeFollower remembers each (operator,
// key) it followed: a command makes one per registry and table function
// (computed or live) and classifies every row with it, so a callee many
// composites share is followed once.
class OutcomeFollower {
 public:
  OutcomeFollower(const Registry& registry, RowOf row_of);
  ~OutcomeFollower();
  OutcomeFollower(const OutcomeFollower&) = delete;
  OutcomeFollower& operator=(const OutcomeFollower&) = delete;
  RowOutcome classify(const Operator& op, const Row& row);
  // Where a failing row's call raises (`followed` is classify's answer for
  // it): down the chain of failing callees to the row that raises itself, a
  // missing row or a raising kernel (has-kernel --works, check's required-key).
  struct Raising {
    const Operator* op = nullptr;
    Row row;
    RowOutcome outcome;  // that row's own: Missing, Raises (a stub's message) …
  };
  Raising where_raises(const Operator& op, const Row& row, RowOutcome followed);
  // PyTorch's error where_raises' row raises: its type and first line (a
  // missing row's "Could not run …", a stub's recorded message); both empty
  // when the row raises with no text known.
  struct RaisedError {
    std::string type, first_line;
  };
  static RaisedError raised_error(const Catalogue& cat, const Raising& at);

 private:
  struct Memo;
  RowOutcome follow(const Operator& op, const Row& row, int depth);
  Outcome outcome_at(const Operator& op, Key key, int depth);
  const Registry& registry_;
  RowOf row_of_;
  std::unique_ptr<Memo> memo_;
};
// One row with a follower of its own: for a command that asks about one row.
RowOutcome classify_followed(const Registry& registry, const Operator& op, const Row& row, const RowOf& row_of);
// "composite; needs aten::add.out (missing)": the callee's outcome at the row's key
std::string dependency_text(const Catalogue& cat, const Dependency& needs);
// One sentence on what the row's kernel does when called, e.g. for a backend
// fallback "the Conjugate fallback materialises conjugated inputs and redispatches".
std::string outcome_does(const Catalogue& cat, const Row& row, Outcome o);
// Whether outcome_does's sentence for `o` starts by naming the row's rule and
// the key that provided it ("default backend kernel via CompositeExplicitAutograd: …"),
// so a renderer does not name them twice.
bool outcome_does_names_provider(Outcome o);
// What the backend fallback of `k` does when called (explain --key K's
// header); "" for one that just runs.
std::string fallback_does(const Catalogue& cat, Key k, const Fallback& fallback);

}  // namespace dispatchctl
