#include "explain/explain.h"

#include "table/kernel_kind.h"

#include <map>

#include "explain/fixes.h"
#include "query/predicates.h"
#include "table/torch_messages.h"
#include "table/outcome.h"
#include "table/torch_text.h"

#include "live/live_table.h"

namespace dispatchctl {

namespace {

// What a call here does when what the kernel calls does not work: a forward-only
// callee leaves the forward working (its backward is what fails).
std::string_view followed_consequence(Outcome followed) {
  switch (outcome_verdict(followed)) {
    case RowVerdict::ForwardOnly: return "the forward runs here, backward does not";
    case RowVerdict::Unknown: return "whether a call here returns is unknown";
    default: return "a call here raises";
  }
}

using Status = RuleOutcome::Status;

Status status_of(Explanation::StepResult outcome) {
  switch (outcome) {
    case Explanation::StepResult::NotApplicable: return Status::NotApplicable;
    case Explanation::StepResult::NoRegistration: return Status::NoRegistration;
    case Explanation::StepResult::Blocked: return Status::Blocked;
    case Explanation::StepResult::Chosen: return Status::Chosen;
  }
  return Status::NotApplicable;
}

// Step 6 blocked: say which of the two terms of has_backend_kernel (§3.2 step 4) did it.
std::string blocked_reason(const Catalogue& cat, Key k, const std::vector<Key>& blockers) {
  const Key cea = *cat.alias(Alias::CompositeExplicitAutograd);
  std::vector<Key> backend;
  bool by_cea = false;
  for (Key b : blockers) {
    if (b == cea) by_cea = true;
    else backend.push_back(b);
  }
  std::string out = "a kernel is registered at CompositeImplicitAutograd but PyTorch keeps it away: ";
  if (!backend.empty())
    out += "the kernel at " + cat.name_list(backend) + " is a backend kernel for " + cat.name(k) +
           " (getBackendKeySetFromAutograd(" + cat.name(k) +
           ") = " + cat.format(cat.backend_set_from_autograd(k)) +
           "), so the backend's own autograd is expected";
  if (by_cea)
    out += std::string(backend.empty() ? "" : "; and ") +
           "a CompositeExplicitAutograd kernel exists, which blocks the math kernel on every key "
           "it does not cover itself";
  return out;
}

// §3.2's steps in order, numbered as printed. Step 4 computes
// has_backend_kernel, which fills no row but decides step 6; it is listed so
// the numbers run 1, 2, 3, … without a gap.
constexpr std::pair<int, Rule> k_steps[] = {{1, Rule::Direct},
                                            {2, Rule::CompositeExplicitAutogradNonFunctional},
                                            {3, Rule::CompositeExplicitAutograd},
                                            {4, Rule::CompositeImplicitAutograd},
                                            {5, Rule::CompositeImplicitAutogradNestedTensor},
                                            {6, Rule::CompositeImplicitAutograd},
                                            {7, Rule::Autograd},
                                            {8, Rule::FuncTorchBatchedDecomposition},
                                            {9, Rule::BackendFallback},
                                            {10, Rule::Missing}};
constexpr int k_backend_kernel_check_step = 4;

// Step 4: has_backend_kernel = hasAny(getBackendKeySetFromAutograd(k)) || has(CEA).
RuleOutcome backend_kernel_check(const Catalogue& cat, const Operator& op, Key k) {
  RuleOutcome o{k_backend_kernel_check_step, Rule::CompositeImplicitAutograd, Status::No, "", {},
                "backend kernel check"};
  const KeySet backend_set = cat.backend_set_from_autograd(k);
  for (const auto& kk : op.by_key())
    if (!cat.is_alias(kk.key) && !backend_set.empty() && cat.has(backend_set, kk.key)) o.blockers.push_back(kk.key);
  const auto cea = cat.alias(Alias::CompositeExplicitAutograd);
  const bool has_cea = cea && op.has(*cea);
  if (has_cea) o.blockers.push_back(*cea);
  if (o.blockers.empty()) {
    const auto backends = cat.iterate(backend_set);
    o.reason = "no kernel at " +
               (backends.empty() ? std::string("a backend key of ") + cat.name(k) + " (it has none)"
                                 : cat.name_list(backends) + " (the backend keys of " + cat.name(k) + ")") +
               " or CompositeExplicitAutograd; step 6 may use CompositeImplicitAutograd";
    return o;
  }
  o.status = Status::Yes;
  const std::size_t backend_count = o.blockers.size() - (has_cea ? 1 : 0);
  o.reason = std::string(o.blockers.size() == 1 ? "a kernel at " : "kernels at ");
  if (backend_count > 0) {
    o.reason += cat.name_list({o.blockers.begin(), o.blockers.begin() + static_cast<long>(backend_count)});
    o.reason += std::string(backend_count == 1 ? " (a backend key of " : " (backend keys of ") + cat.name(k) + ")";
    if (has_cea) o.reason += " and ";
  }
  if (has_cea) o.reason += "CompositeExplicitAutograd";
  o.reason += "; step 6 cannot use CompositeImplicitAutograd";
  return o;
}

std::vector<RuleOutcome> rule_outcomes(const Catalogue& cat, const Operator& op, const Registry& registry,
                                       Key k, const Row& row, const Explanation& why) {
  std::map<Rule, const Explanation::Step*> recorded;
  for (const auto& s : why.steps)
    recorded[s.rule == Rule::AmbiguousAutogradOther ? Rule::CompositeImplicitAutograd : s.rule] = &s;
  std::vector<RuleOutcome> out;
  bool after_chosen = false;
  for (auto [step, rule] : k_steps) {
    const std::string label = rule_label(rule);
    RuleOutcome o{step, rule, Status::NotApplicable, "", {}, label};
    const auto alias = alias_of_rule(rule);
    if (step == k_backend_kernel_check_step) {
      o = backend_kernel_check(cat, op, k);
      if (after_chosen) o.status = Status::NotReached, o.reason = "an earlier rule filled the row", o.blockers.clear();
    } else if (alias && !cat.alias(*alias)) {
      o.status = Status::NotInRelease;
      o.reason = "PyTorch " + std::string(cat.version()) + " has no " + label + " key";
    } else if (auto it = recorded.find(rule); it != recorded.end() && !after_chosen) {
      const auto& s = *it->second;
      o.rule = s.rule;
      o.status = status_of(s.outcome);
      o.reason = s.reason;
      o.blockers = s.blockers;
      if (o.status == Status::Blocked) o.reason = blocked_reason(cat, k, s.blockers);
      if (s.rule == Rule::CompositeImplicitAutograd && o.status == Status::Chosen) {
        const auto backends = cat.iterate(cat.backend_set_from_autograd(k));
        o.reason = (backends.empty() ? "no backend kernel can block it here (getBackendKeySetFromAutograd(" +
                                           cat.name(k) + ") is empty)"
                                     : "no kernel at " + cat.name_list(backends) + " (the backend keys of " +
                                           cat.name(k) + ")") +
                   " and no CompositeExplicitAutograd kernel";
      }
      if (s.rule == Rule::AmbiguousAutogradOther)
        o.reason = "CompositeImplicitAutograd and kernels on autogradother backends (" +
                   cat.name_list(s.blockers) +
                   ") both apply to AutogradOther; PyTorch cannot tell which one a tensor of those "
                   "backends needs and installs the ambiguous kernel, which raises when called";
      if (rule == Rule::Direct && o.status == Status::Chosen && row.kernel && row.kernel->fallthrough)
        o.reason += " (a fallthrough kernel)";
    } else if (rule == Rule::Missing) {
      continue;  // only listed when nothing applied (then it is recorded)
    } else if (rule == Rule::BackendFallback) {
      const Fallback* fb = registry.fallback_for(k);
      o.status = fb ? Status::Shadowed : Status::NotReached;
      o.reason = fb ? "a backend fallback exists for " + cat.name(k) + ", but an earlier rule won"
                    : "no backend fallback for " + cat.name(k);
    } else if (alias) {
      const Key ak = *cat.alias(*alias);
      const bool covered = k != k_undefined && cat.included_in_alias(k, ak);
      if (!covered) {
        o.reason = cat.name(k) + " is not in the " + label + " set";
      } else if (op.has(ak)) {
        o.status = Status::Shadowed;
        o.reason = "a kernel is registered at " + label + ", but an earlier rule won";
      } else {
        o.status = Status::NotReached;
        o.reason = "no kernel registered at " + label;
      }
    }
    if (o.status == Status::Chosen) after_chosen = true;
    out.push_back(std::move(o));
  }
  return out;
}

void add_notes(const Registry& registry, const Operator& op, RowExplanation& e) {
  const Catalogue& cat = registry.catalogue();
  const Key k = e.key;
  const Row& row = e.row;
  const auto& rules = e.rules;
  const auto& wk = cat.well_known();
  const Key cia = *cat.alias(Alias::CompositeImplicitAutograd);
  auto& notes = e.notes;
  if (k == k_undefined)
    notes.push_back("Undefined is the row a call uses when no dispatch key is left (e.g. no tensor "
                    "arguments); only CompositeExplicitAutograd(NonFunctional) and "
                    "CompositeImplicitAutograd kernels can fill it");
  if (row.rule == Rule::AmbiguousAutogradOther)
    notes.push_back("calling it raises an INTERNAL ASSERT ending with the operator's dumpState; a "
                    "kernel registered directly at AutogradOther resolves the ambiguity (an Autograd "
                    "kernel does not: the ambiguity is decided first)");
  // What the row's kernel calls decides (table/outcome.h); the notes below on
  // the kernel itself read what it is alone.
  const RowOutcome followed = classify_followed(registry, op, row, computed_row_of(registry));
  const Outcome outcome = followed.kernel;
  if (followed.needs.op)
    notes.push_back(dependency_text(cat, followed.needs) +
                    (followed.needs.via == DependencyVia::GeneratedCall
                         ? ": this kernel is torchgen's generated composite, which calls "
                     : followed.needs.via == DependencyVia::RecordedCall
                         ? ": this hand-written composite calls (recorded from the release) "
                         : ": this autograd kernel passes the call on to ") +
                    std::string(followed.needs.op->name) + " through the dispatcher; its " +
                    cat.name(followed.needs.row.key) + " row: " +
                    outcome_does(cat, followed.needs.row, followed.needs.outcome) +
                    (outcome_works(followed.outcome) ? "" : "; so " + std::string(followed_consequence(followed.outcome))));
  if (row.rule == Rule::BackendFallback && outcome == Outcome::Raises)
    notes.push_back("this is PyTorch " + std::string(cat.version()) +
                    "'s raising Meta backend fallback: a call raises NotImplementedError (\"" +
                    meta_fallback_error(cat, op.name) + "\"), although has_computed_kernel says yes");
  if (outcome == Outcome::AutogradNotImplemented && row.rule == Rule::BackendFallback)
    notes.push_back("this is PyTorch " + std::string(cat.version()) +
                    "'s autograd-not-implemented fallback, not an autograd kernel: the forward runs, but "
                    "if an input requires grad, backward warns (\"" + autograd_fallback_warning(cat, op.name) +
                    "\") and the gradients are missing; fix: register a kernel at Autograd (or " + cat.name(k) +
                    ", or CompositeImplicitAutograd) for " + op.name);
  else if (outcome == Outcome::AutogradNotImplemented)
    notes.push_back("this autograd kernel is torchgen's autogradNotImplementedFallback() (registered boxed "
                    "only, no signature: the operator has no derivative formula): the forward runs; if an "
                    "input requires grad, backward through it raises");
  if (outcome == Outcome::Python)
    notes.push_back("python kernel: registered from Python (" +
                    (python_file_unrecorded(row.debug()) ? std::string("file not recorded") : std::string(row.debug())) +
                    "), not C++. It may raise for inputs it does not handle (Python meta kernels raise "
                    "for data-dependent operators such as aten::nonzero), so whether a call works is "
                    "unknown (query --unknown, has-kernel --works)");
  if (k == k_undefined && row.kernel && row.kernel->fallthrough)
    notes.push_back("a fallthrough on Undefined is called (there is no bit to mask) and raises an "
                    "INTERNAL ASSERT (fallthrough_kernel was executed …)");
  else if (row.valid() && row.fallthrough())
    notes.push_back("fallthrough: the row is valid (has_computed_kernel says yes), but a call never runs "
                    "it: " + cat.name(k) + "'s bit is masked out and dispatch continues at the next "
                    "lower key");
  // HIP/VE(/MTIA) quirk: their autograd keys map to no backend keys (§3.2).
  if (k != k_undefined && cat.functionality_of(k) == wk.autograd_functionality && cat.backend_of(k) != 0 &&
      cat.backend_set_from_autograd(k).empty() && op.has(cia)) {
    const Key backend = cat.runtime_key(wk.dense, cat.backend_of(k));
    if (op.has(backend) && row.rule == Rule::CompositeImplicitAutograd) e.unblocked_backend = backend;
    if (op.has(backend))
      notes.push_back("[quirk] the kernel at " + cat.name(backend) + " does not block the math kernel on " +
                      cat.name(k) + ": PyTorch's getBackendKeySetFromAutograd(" + cat.name(k) +
                      ") is empty, so no backend kernel is seen there (other Autograd<backend> keys "
                      "are blocked by their backend's kernel)");
  }
  const auto ceanf = cat.alias(Alias::CompositeExplicitAutogradNonFunctional);
  if (row.rule == Rule::CompositeImplicitAutograd && ceanf && op.has(*ceanf))
    notes.push_back("the CompositeExplicitAutogradNonFunctional kernel does not block the math kernel: "
                    "only a CompositeExplicitAutograd kernel does");
  for (const auto& r : rules)
    for (Key b : r.blockers)
      if (cat.kind(b) == KeyKind::BuildingBlock)
        notes.push_back("[quirk] the registration at building block " + cat.name(b) +
                        " fills no row itself but counts as a kernel for every " + cat.name(b) +
                        " key (hasAny)");
}

// Calls use the live table (§3.3): note a stale row, and list the keys
// PyTorch's error lists (listAllDispatchKeys reads the live table).
void add_live(const Registry& registry, const Operator& op, RowExplanation& e, std::vector<Key>& available) {
  const LiveTable live = replay_live_table(registry, op);
  available = live.available_keys();
  if (!live.is_stale(e.key)) return;
  e.stale = true;
  e.live = live.live(e.key);
  const Catalogue& cat = registry.catalogue();
  e.notes.push_back("stale: PyTorch's live table holds " +
                    (e.live.valid() ? std::string(e.live.debug()) + " [" + std::string(tag_text(e.live.rule)) + "]"
                                    : std::string("no kernel")) +
                    " at " + cat.name(e.key) + ", and a call runs that; " + stale_reason(registry, op, live, e.key));
}

}  // namespace

std::string rule_label(Rule rule) {
  switch (rule) {
    case Rule::Direct: return "direct registration";
    case Rule::CompositeExplicitAutogradNonFunctional: return "CompositeExplicitAutogradNonFunctional";
    case Rule::CompositeExplicitAutograd: return "CompositeExplicitAutograd";
    case Rule::CompositeImplicitAutogradNestedTensor: return "CompositeImplicitAutogradNestedTensor";
    case Rule::CompositeImplicitAutograd:
    case Rule::AmbiguousAutogradOther: return "CompositeImplicitAutograd";
    case Rule::Autograd: return "Autograd";
    case Rule::FuncTorchBatchedDecomposition: return "FuncTorchBatchedDecomposition";
    case Rule::BackendFallback: return "backend fallback";
    case Rule::Missing: return "missing";
  }
  return "";
}

RowExplanation explain_row(const Registry& registry, const Operator& op, Key k, bool with_fixes) {
  const Catalogue& cat = registry.catalogue();
  Explanation why;
  RowExplanation e;
  e.key = k;
  e.row = compute_row(registry, op, k, &why);
  e.raises = row_known_to_raise(cat, e.row);
  e.rules = rule_outcomes(cat, op, registry, k, e.row, why);
  if (e.row.kernel && e.row.rule != Rule::AmbiguousAutogradOther)
    if (const auto at = op.kernels_at(e.row.provider); !at.empty())
      for (auto it = std::next(at.begin()); it != at.end(); ++it) e.inactive.push_back(&op.registrations[*it]);
  add_notes(registry, op, e);
  const auto table = compute_table(registry, op);
  std::vector<Key> available = available_keys(table);
  add_live(registry, op, e, available);
  if (!e.row.valid()) {
    e.error = missing_row_error(cat, op, k, table, available, registry.privateuse1_backend);
    e.available = available;
  }
  if (with_fixes && (!e.row.valid() || e.raises)) e.fixes = find_fixes(registry, op, k, table);
  return e;
}

OperatorKeyExplanation explain_operator_key(const Registry& registry, const Operator& op, Key k) {
  const Catalogue& cat = registry.catalogue();
  OperatorKeyExplanation out;
  out.op = &op;
  out.requested = k;
  if (cat.is_alias(k)) {
    for (Key r : cat.alias_runtime_keys(k)) out.rows.push_back(explain_row(registry, op, r, false));
  } else if (cat.kind(k) == KeyKind::BuildingBlock) {
    for (int b = 1; b <= cat.backend_count(); ++b)
      out.rows.push_back(explain_row(registry, op, cat.runtime_key(cat.functionality_of(k), b), false));
  } else {
    out.rows.push_back(explain_row(registry, op, k, true));
    if (cat.backend_of(k) > 0) out.needs = operator_needs(registry, op, k);  // a backend's key
  }
  return out;
}

}  // namespace dispatchctl
