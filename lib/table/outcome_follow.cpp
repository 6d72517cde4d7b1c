// classify_followed (table/outcome.h): what a row's kernel calls, followed.
#include <unordered_map>

#include "table/outcome.h"
#include "table/outcome_kernel.h"
#include "table/torch_messages.h"

namespace dispatchctl {

namespace {

// Calls nest (a composite calls a composite …); deeper than this is unknown.
constexpr int k_max_followed = 24;
// Marks an (operator, key) being followed: met again, it is a cycle.
constexpr std::uint8_t k_in_progress = 0xFF;

RowVerdict verdict_of(Outcome o) { return outcome_verdict(o); }

// The backend row an autograd row passes the call on to (AutogradPrivateUse1
// -> PrivateUse1), when the key has one backend; nullopt otherwise.
std::optional<Key> backend_row_below(const Catalogue& cat, Key k) {
  if (!is_autograd_row(cat, k) || cat.functionality_of(k) != cat.well_known().autograd_functionality) return {};
  const int backend = cat.backend_of(k);
  if (backend <= 0) return {};
  return cat.runtime_key(cat.well_known().dense, backend);
}

using outcome_detail::classify_kernel;

// Whether the autograd row's kernel passes the call on below (VariableType,
// the autograd fallback, a fallthrough) rather than decomposing (a
// CompositeImplicitAutograd kernel) or being the backend's own autograd
// kernel registered at exactly this key (its code decides).
bool passes_call_below(Outcome o, const Row& row) {
  if (row.rule == Rule::CompositeImplicitAutograd || row.rule == Rule::CompositeImplicitAutogradNestedTensor)
    return false;
  return o == Outcome::Composite || o == Outcome::Fallback || o == Outcome::Fallthrough ||
         o == Outcome::AutogradNotImplemented;
}

// A hand-written composite at a key its alias fills (or a kernel the
// recording names at a runtime key).
bool runs_composite_kernel(Outcome o) { return o == Outcome::Composite || o == Outcome::Direct; }

bool is_hand_written_composite_rule(Rule r) {
  return r == Rule::CompositeExplicitAutograd || r == Rule::CompositeExplicitAutogradNonFunctional ||
         r == Rule::CompositeImplicitAutograd || r == Rule::CompositeImplicitAutogradNestedTensor;
}


}  // namespace

struct OutcomeFollower::Memo {
  std::unordered_map<std::uint64_t, std::uint8_t> outcomes;  // (operator index, key) -> Outcome
};

std::optional<Key> key_below(const Catalogue& cat, const Row& row) {
  if (!row.valid() || !passes_call_below(classify_kernel(cat, row), row)) return {};
  return backend_row_below(cat, row.key);
}

RowOf computed_row_of(const Registry& registry) {
  return [&registry](const Operator& op, Key k) { return compute_row(registry, op, k); };
}

OutcomeFollower::OutcomeFollower(const Registry& registry, RowOf row_of)
    : registry_(registry), row_of_(std::move(row_of)), memo_(std::make_unique<Memo>()) {}
OutcomeFollower::~OutcomeFollower() = default;

RowOutcome OutcomeFollower::classify(const Operator& op, const Row& row) { return follow(op, row, 0); }

OutcomeFollower::Raising OutcomeFollower::where_raises(const Operator& op, const Row& row, RowOutcome followed) {
  Raising at{&op, row, std::move(followed)};
  for (int hop = 0; hop < k_max_followed && at.outcome.outcome == Outcome::CompositeFails && at.outcome.needs.op;
       ++hop) {
    at.op = at.outcome.needs.op;
    at.row = at.outcome.needs.row;
    at.outcome = classify(*at.op, at.row);
  }
  return at;
}

OutcomeFollower::RaisedError OutcomeFollower::raised_error(const Catalogue& cat, const Raising& at) {
  if (at.op && at.outcome.outcome == Outcome::Missing)
    return {"NotImplementedError", missing_row_headline(cat, at.op->name, at.row.key)};
  if (!at.outcome.raises.empty())
    return {std::string(at.outcome.raises_type), std::string(at.outcome.raises.substr(0, at.outcome.raises.find('\n')))};
  return {};
}

Outcome OutcomeFollower::outcome_at(const Operator& op, Key key, int depth) {
  const auto index = static_cast<std::uint64_t>(&op - registry_.operators().data());
  const std::uint64_t id = (index << 16) | key;
  const auto [it, inserted] = memo_->outcomes.try_emplace(id, k_in_progress);
  if (!inserted) return it->second == k_in_progress ? Outcome::CompositeUnknown : static_cast<Outcome>(it->second);
  const Outcome o = depth >= k_max_followed ? Outcome::CompositeUnknown : follow(op, row_of_(op, key), depth).outcome;
  memo_->outcomes[id] = static_cast<std::uint8_t>(o);
  return o;
}

RowOutcome OutcomeFollower::follow(const Operator& op, const Row& row, int depth) {
  const Catalogue& cat = registry_.catalogue();
  const Outcome kernel = classify_kernel(cat, row);
  RowOutcome out{kernel, kernel, {}, false, {}, {}};
  if (!row.kernel || row.rule == Rule::BackendFallback) {
    if (out.outcome != Outcome::Fallback && out.outcome != Outcome::AutogradNotImplemented &&
        out.outcome != Outcome::Fallthrough)
      return out;
  }
  auto settle = [&](const Dependency& dep) {
    out.needs = dep;
    switch (verdict_of(dep.outcome)) {
      case RowVerdict::Works: break;
      case RowVerdict::Unknown: out.outcome = Outcome::CompositeUnknown; break;
      case RowVerdict::ForwardOnly: out.outcome = Outcome::AutogradNotImplemented; break;
      case RowVerdict::Fails: out.outcome = Outcome::CompositeFails; break;
    }
  };
  const bool kernel_row = row.kernel && row.rule != Rule::BackendFallback;
  // torchgen's generated composite: its one callee decides.
  if (kernel_row && out.outcome == Outcome::Composite)
    if (const GeneratedCall* call = registry_.generated_call(*row.kernel)) {
      const Operator* callee = registry_.find(call->callee);
      if (!callee || callee == &op) return out;
      Dependency dep{callee, call->kind, DependencyVia::GeneratedCall, row_of_(*callee, row.key), Outcome::Missing};
      dep.outcome = outcome_at(*callee, row.key, depth + 1);
      settle(dep);
      return out;
    }
  // A hand-written composite whose calls were recorded from the release.
  if (kernel_row && runs_composite_kernel(out.outcome))
    if (const CompositeCalls* calls = recorded_calls_at(registry_, *row.kernel, row.key)) {
      if (calls->raises && calls->raises_when == CallWhen::Always) {
        out.outcome = Outcome::Raises;
        out.raises = *calls->raises;
        out.raises_type = calls->raises_type.value_or("NotImplementedError");
        return out;
      }
      std::optional<Dependency> unknown, forward_only;
      for (const RecordedCall& c : calls->calls) {
        const Operator* callee = registry_.find(c.op);
        if (!callee || callee == &op) {  // not in this registry, or a call of itself: unknown
          if (!unknown && callee) unknown = Dependency{callee, {}, DependencyVia::RecordedCall, row, Outcome::CompositeUnknown};
          if (!callee) out.assumed = true;
          continue;
        }
        Dependency dep{callee, {}, DependencyVia::RecordedCall, row_of_(*callee, row.key), Outcome::Missing};
        dep.outcome = outcome_at(*callee, row.key, depth + 1);
        const RowVerdict v = verdict_of(dep.outcome);
        if (v == RowVerdict::Fails && c.when == CallWhen::Always) {
          settle(dep);  // the first callee every call makes that fails: the call raises there
          return out;
        }
        if ((v == RowVerdict::Unknown || v == RowVerdict::Fails) && !unknown) unknown = dep;
        if (v == RowVerdict::ForwardOnly && !forward_only) forward_only = dep;
      }
      if (unknown) {
        out.needs = *unknown;
        out.outcome = Outcome::CompositeUnknown;
      } else if (forward_only) {
        settle(*forward_only);
      }
      return out;
    }
  if (kernel_row && out.outcome == Outcome::Composite && is_hand_written_composite_rule(row.rule))
    out.assumed = true;  // what it calls was not recorded: working, as assumed before
  // An autograd row that passes the call on: the row below decides.
  if (passes_call_below(out.outcome, row))
    if (const auto below = backend_row_below(cat, row.key)) {
      Dependency dep{&op, {}, DependencyVia::Below, row_of_(op, *below), Outcome::Missing};
      dep.outcome = outcome_at(op, *below, depth + 1);
      const RowVerdict v = verdict_of(dep.outcome);
      if (v == RowVerdict::Fails) {
        out.needs = dep;
        out.outcome = Outcome::CompositeFails;
        out.assumed = false;
      } else if (v == RowVerdict::Unknown && out.outcome != Outcome::AutogradNotImplemented) {
        out.needs = dep;
        out.outcome = Outcome::CompositeUnknown;
        out.assumed = false;
      }
    }
  return out;
}

// A recording holds at its kind's key only (a sparse, quantized, mkldnn or
// nested tensor takes other paths in the same kernel than a dense one, and
// another device device-specific ones: copy_ calls _copy_from across devices
// only), and at the autograd key above a dense kind, where a
// CompositeImplicitAutograd kernel decomposes. The autograd key above a sparse
// or quantized kind is the dense one's (AutogradCPU): there the dense
// recording holds, as the row is the dense tensors' too.
std::optional<Key> main_recording_kind(const Registry& registry) {
  const Catalogue& cat = registry.catalogue();
  const auto backend = cat.backend_index(registry.composite_calls_backend());
  if (!backend) return std::nullopt;
  return cat.runtime_key(cat.well_known().dense, *backend);
}

const CompositeCalls* recorded_calls_on(const Registry& registry, const Kernel& kernel, Key kind) {
  if (kind == main_recording_kind(registry)) return registry.composite_calls(kernel);
  return registry.kind_composite_calls(kernel, kind);
}

const CompositeCalls* recorded_calls_at(const Registry& registry, const Kernel& kernel, Key k) {
  const Catalogue& cat = registry.catalogue();
  Key kind = k;
  if (cat.functionality_of(k) == cat.well_known().autograd_functionality) {
    if (cat.backend_of(k) <= 0) return nullptr;
    kind = cat.runtime_key(cat.well_known().dense, cat.backend_of(k));
  }
  return recorded_calls_on(registry, kernel, kind);
}

RowOutcome classify_followed(const Registry& registry, const Operator& op, const Row& row, const RowOf& row_of) {
  OutcomeFollower follower(registry, row_of);
  return follower.classify(op, row);
}

}  // namespace dispatchctl
