#include "trace/trace.h"

#include <algorithm>
#include <deque>
#include <optional>
#include <stdexcept>

#include "trace/behaviour.h"
#include "trace/bind_arguments.h"
#include "trace/generated_kernels.h"
#include "table/outcome.h"
#include "trace/recorded_calls.h"

namespace dispatchctl {

std::string_view action_id(HopAction action) {
  switch (action) {
    case HopAction::Return: return "return";
    case HopAction::Redispatch: return "redispatch";
    case HopAction::FreshCall: return "fresh_call";
    case HopAction::CallOperator: return "call";
    case HopAction::Raise: return "raise";
    case HopAction::Handoff: return "handoff";
  }
  return "return";
}

Trace trace_call(const Registry& registry, const Operator& op, const CallSetup& setup) {
  return trace_call(registry, op, setup, replay_live_table(registry, op));
}

namespace {

// §5.1: union of the arguments, TLS, the live fallthrough mask of the backend
// that applies, highest-priority key.
KeySetComputation compute_key_set(const Catalogue& cat, const LiveTable& live, std::string op, std::string reason,
                                  const std::vector<TensorArg>& args, KeySet included, KeySet excluded) {
  KeySetComputation c;
  c.op = std::move(op);
  c.reason = std::move(reason);
  c.arguments = args;
  for (const auto& a : args) c.tensor_union = c.tensor_union | a.keys;
  c.tls_included = included;
  c.tls_excluded = excluded;
  c.after_tls = cat.minus(c.tensor_union | included, excluded);
  // 2.x picks the mask by the highest backend after TLS, 1.13 by the raw tensors' (§9.1).
  c.mask_backend = cat.highest_backend(cat.spec().fallthrough_mask_after_tls ? c.after_tls : c.tensor_union);
  c.mask = live.fallthrough_mask(c.mask_backend);
  c.dispatch = c.after_tls & c.mask;
  c.highest = cat.highest_priority(c.dispatch);
  return c;
}

// What the kernels check about the call beyond its key set, once per call
// (the tensors' binding to the operator's schema decides which are written).
CallFacts facts_of(TensorBinding binding, const std::vector<TensorArg>& args, const CallSetup& setup) {
  CallFacts facts;
  facts.grad_mode = setup.grad_mode;
  facts.self_leaf_requires_grad = !args.empty() && args[0].leaf;
  for (const auto& a : args) {
    facts.any_requires_grad = facts.any_requires_grad || a.requires_grad;
    facts.requires_grad.push_back(a.requires_grad);
  }
  for (std::size_t i = 0; i < binding.written.size() && i < args.size(); ++i) {
    if (!binding.written[i]) continue;
    facts.writes_leaf = facts.writes_leaf || args[i].leaf;
    facts.writes_inference_tensor = facts.writes_inference_tensor || (args[i].inference && !setup.inference_mode);
  }
  facts.binding = std::move(binding);
  return facts;
}

// A raise waiting for the call below a kernel to return (Behaviour::after_return_error).
struct PendingRaise {
  size_t hop = 0;  // the kernel that raises once the call below it returns
  std::string error_type, error, does;
};

}  // namespace

namespace {

// The kind of tensor whose recorded composite calls hold for the call
// (docs/composite-calls.md): the main recording's (a dense tensor of the
// backend it was recorded on) or a recorded kind's (SparseCPU …), when every
// tensor of the call carries its key; a call mixing kinds, or on a kind not
// recorded, takes paths no recording saw.
std::optional<Key> recording_kind(const Registry& registry, const std::vector<TensorArg>& args) {
  if (args.empty()) return std::nullopt;
  const Catalogue& cat = registry.catalogue();
  auto all_carry = [&](Key kind) {
    return std::all_of(args.begin(), args.end(), [&](const TensorArg& a) { return cat.has(a.keys, kind); });
  };
  if (const auto main = main_recording_kind(registry); main && all_carry(*main)) return main;
  for (const Key kind : registry.composite_call_kinds())
    if (all_carry(kind)) return kind;
  return std::nullopt;
}

// A hand-written composite's callees are traced to see which one raises
// (trace/recorded_calls.h); calls nest no deeper than this.
constexpr int k_max_callee_depth = 8;

Trace run_trace(const Registry& registry, const Operator& op, const CallSetup& setup, const LiveTable& live,
                int depth) {
  const Catalogue& cat = registry.catalogue();
  Trace trace;
  trace.op = op.name;
  trace.stale_keys = live.stale_keys();
  std::vector<TensorArg> args = setup.arguments;
  // The TLS in effect: the user's, plus the guards of the kernels up the
  // stack (each one only adds to excluded while the call passes below it).
  KeySet included = setup.tls_included;
  KeySet excluded = setup.tls_excluded;
  std::string reason = "the call";
  // The operator being called: a generated composite calls another one
  // (Registry::generated_call), whose live table the trace then follows.
  const Operator* current = &op;
  const LiveTable* current_live = &live;
  std::deque<LiveTable> callee_tables;
  // Code that ran before the call was passed on and may raise its own error
  // first (a meta function, a backward set-up, an autocast cast): the first one.
  std::string caveat;
  std::optional<PendingRaise> pending;
  // The caller's tensors bound to the schema (refused when they cannot be);
  // the tensors a kernel passes on to another operator are bound to its.
  CallFacts facts = facts_of(depth == 0 ? bind_tensor_arguments(op, args.size()) : bind_passed_tensors(op, args.size()),
                             args, setup);
  // Every fresh call runs under one more guard and every redispatch drops
  // the current functionality, so these bounds are never reached in practice.
  for (int call = 0; call < 64; ++call) {
    const Operator& op_now = *current;
    const LiveTable& live_now = *current_live;
    trace.calls.push_back(compute_key_set(cat, live_now, op_now.name, reason, args, included, excluded));
    KeySet ks = trace.calls.back().dispatch;
    bool calls_again = false;
    for (int step = 0; step < 256; ++step) {
      const int slot = cat.table_index(ks);
      Hop hop;
      hop.call = call;
      hop.row = live_now.rows[slot];
      hop.computed = live_now.computed[slot];
      hop.stale = live_now.stale[slot];
      if (hop.stale) hop.stale_reason = stale_reason(registry, op_now, live_now, hop.row.key);
      hop.received = ks;
      hop.tls_included = included;
      hop.tls_excluded = excluded;
      Behaviour b = behaviour_of(registry, op_now, live_now, hop.row, facts);
      const std::optional<Key> kind = recording_kind(registry, args);
      if (b.action == HopAction::Return && b.kernel_decides && !b.declared && kind) {
        // A hand-written composite whose calls the release's recording knows.
        const TraceCallee trace_callee = [&](const Operator& callee) -> std::optional<Trace> {
          if (depth + 1 >= k_max_callee_depth) return std::nullopt;
          CallSetup inner = setup;
          inner.arguments = args;
          // What the composite passes on is mostly made inside it (an output,
          // a view): not the caller's leaf or inference tensor.
          for (auto& a : inner.arguments) a.leaf = a.inference = false;
          inner.tls_included = included;
          inner.tls_excluded = excluded;
          return run_trace(registry, callee, inner, replay_live_table(registry, callee), depth + 1);
        };
        if (auto recorded = recorded_composite_behaviour(registry, op_now, hop.row, *kind, trace_callee)) b = *recorded;
      }
      if (caveat.empty()) caveat = b.may_raise_first.empty() ? b.caveat : b.may_raise_first;
      if (!b.may_raise_first.empty()) b.does += " (unless " + b.may_raise_first + ")";
      if (!b.after_return_error.empty()) {
        // The innermost such kernel returns first, so its raise is the one.
        pending = PendingRaise{trace.hops.size(), b.after_return_error_type, b.after_return_error,
                               b.after_return_does};
        b.does += "; " + b.after_return_does;
      }
      hop.action = b.action;
      hop.declared = b.declared;
      hop.kernel_decides = b.kernel_decides;
      hop.assumed = std::move(b.assumed);
      hop.does = std::move(b.does);
      hop.callee = b.callee ? std::string(b.callee->name) : std::string();
      hop.error_type = std::move(b.error_type);
      hop.error = std::move(b.error);
      hop.consequence = std::move(b.consequence);
      hop.resolves = b.resolves;
      hop.guard = b.guard;
      excluded = excluded | b.guard.excludes;
      if (b.action == HopAction::Redispatch && (ks & b.mask) == ks && !b.backend_select && b.resolves == k_undefined) {
        // Passing on the very set it received reaches the same row again: the
        // kernel calls itself forever (a declared "redispatch" at Undefined).
        hop.action = HopAction::Raise;
        hop.error_type = "a stack overflow";
        hop.error = "the kernel redispatches with the key set it received, " + cat.format(ks) +
                    ", so the same row runs again without end; PyTorch overflows the stack";
        trace.hops.push_back(std::move(hop));
        trace.outcome = Trace::End::Raised;
        return trace;
      }
      if (b.action == HopAction::Redispatch) {
        if (b.resolves != k_undefined)
          for (auto& a : args) a.keys = cat.minus(a.keys, cat.bit(b.resolves));
        KeySet next = ks & b.mask;
        if (b.backend_select) {
          const int backend = cat.highest_backend(ks);
          const KeySet chosen = cat.bit(cat.runtime_key(cat.well_known().dense, backend == 0 ? 1 : backend));
          next = cat.minus(chosen | included, excluded) & b.mask;
        }
        hop.mask = b.mask;
        hop.next = next;
        ks = next;
        trace.hops.push_back(std::move(hop));
        continue;
      }
      const HopAction action = hop.action;
      trace.hops.push_back(std::move(hop));
      if (action == HopAction::FreshCall) {
        const Hop& from = trace.hops.back();
        reason = "fresh call from " + cat.name(from.row.key) + " (under " + from.guard.name + ": TLS excluded adds " +
                 from.guard.keys + ")";
        calls_again = true;
        break;
      }
      if (action == HopAction::CallOperator) {
        // The composite calls the operator through the dispatcher (at::OP):
        // a fresh call with the same tensors (its out= is made like its
        // inputs) under the guards held up the stack.
        const Hop& from = trace.hops.back();
        current = b.callee;
        callee_tables.push_back(replay_live_table(registry, *current));
        current_live = &callee_tables.back();
        const bool generated = from.row.kernel && registry.generated_call(*from.row.kernel);
        reason = "call of " + from.callee + " by " + op_now.name + (generated ? "'s generated composite at " : "'s composite at ") +
                 cat.name(from.row.key);
        facts = facts_of(bind_passed_tensors(*current, args.size()), args, setup);
        calls_again = true;
        break;
      }
      trace.outcome = action == HopAction::Return  ? Trace::End::Completed
                      : action == HopAction::Raise ? Trace::End::Raised
                                                   : Trace::End::Handoff;
      trace.assumed = action == HopAction::Return && trace.hops.back().kernel_decides;
      if (action == HopAction::Return && pending) {
        // The call below returned (if its kernel does: else it raised its
        // own error): the kernel that was waiting raises now, for certain.
        if (trace.assumed && caveat.empty())
          caveat = "the kernel at " + cat.name(trace.hops.back().row.key) + " raises its own error first";
        Hop bump = trace.hops[pending->hop];
        bump.action = HopAction::Raise;
        bump.kernel_decides = false;
        bump.guard = {};
        bump.mask = {};
        bump.next = {};
        bump.error_type = std::move(pending->error_type);
        bump.error = std::move(pending->error);
        bump.does = std::move(pending->does);
        bump.assumed = "generated in-place/out= kernels (increment_version; c10/core/TensorImpl.h)";
        trace.hops.push_back(std::move(bump));
        trace.outcome = Trace::End::Raised;
        trace.assumed = false;
      }
      if (trace.outcome == Trace::End::Raised) trace.error_caveat = caveat;
      return trace;
    }
    // A call that neither ended nor called again within the bound: failing
    // here, not starting the same call over.
    if (!calls_again) throw std::logic_error("trace of " + op.name + " did not terminate within a call");
  }
  throw std::logic_error("trace of " + op.name + " did not terminate");
}

}  // namespace

Trace trace_call(const Registry& registry, const Operator& op, const CallSetup& setup, const LiveTable& live) {
  return run_trace(registry, op, setup, live, 0);
}

Trace trace_passed_call(const Registry& registry, const Operator& op, const CallSetup& setup) {
  return run_trace(registry, op, setup, replay_live_table(registry, op), 1);
}

}  // namespace dispatchctl
