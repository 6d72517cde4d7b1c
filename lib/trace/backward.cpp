#include "trace/backward.h"

namespace dispatchctl {

namespace {

// The tensor the forward returns lives where the call dispatched: on the
// highest backend among its tensors (§5.1), as the first such tensor.
std::optional<TensorArg> output_like(const Catalogue& cat, const std::vector<TensorArg>& args) {
  KeySet all;
  for (const TensorArg& a : args) all = all | a.keys;
  const int backend = cat.highest_backend(all);
  for (const TensorArg& a : args)
    if (cat.highest_backend(a.keys) == backend) return a;
  return std::nullopt;
}

BackwardCallVerdict verdict_of(const Catalogue& cat, const Trace& t, Key dense) {
  BackwardCallVerdict v;
  // A trace that leaves the backend (a factory called without its tensors) is
  // not the call the engine makes.
  if (t.calls.empty() || !cat.has(t.calls.front().dispatch, dense) ||
      (!t.hops.empty() && !cat.has(t.hops.back().received, dense))) {
    v.why = "its trace leaves " + cat.name(dense);
    return v;
  }
  switch (t.outcome) {
    case Trace::End::Completed:
      v.kind = BackwardCallVerdict::Kind::Returns;
      v.assumed = t.assumed;
      break;
    case Trace::End::Raised: {
      const Hop& last = t.hops.back();
      v.kind = BackwardCallVerdict::Kind::Raises;
      v.error_type = last.error_type;
      v.error = last.error;
      v.raises_at = t.calls[last.call].op;
      v.caveat = t.error_caveat;
      break;
    }
    case Trace::End::Handoff:
      v.why = "handed to code dispatchctl does not model";
      break;
  }
  return v;
}

}  // namespace

BackwardTrace trace_backward(const Registry& registry, const Operator& op, const CallSetup& setup,
                             const Trace& forward, BackwardForm form) {
  const Catalogue& cat = registry.catalogue();
  BackwardTrace bt;
  bt.form = form;
  if (forward.outcome == Trace::End::Raised) {
    bt.start = BackwardTrace::Start::ForwardRaises;
    bt.start_note = "the forward raises: no backward runs";
    return bt;
  }
  if (forward.outcome == Trace::End::Handoff) {
    bt.start = BackwardTrace::Start::ForwardUnknown;
    bt.start_note = "the forward is handed to code dispatchctl does not model: whether a backward runs is unknown";
    return bt;
  }
  const std::optional<TensorArg> out = output_like(cat, setup.arguments);
  const std::optional<BackwardPlan> plan = backward_plan(registry, op, form);
  if (!out || !plan) {
    bt.start = BackwardTrace::Start::NotRecorded;
    bt.start_note = !out ? "the call has no tensor argument: its output's device is unknown"
                         : "the registry holds no recorded backward (docs/composite-calls.md)";
    return bt;
  }
  const int backend = cat.highest_backend(out->keys);
  const Key dense = cat.runtime_key(cat.well_known().dense, backend == 0 ? 1 : backend);
  // The output and its sum require grad (not leaves); the node's calls get
  // the gradient and the saved tensors, made inside, on the same backend.
  TensorArg result = *out;
  result.requires_grad = true;
  result.leaf = result.inference = false;
  CallSetup forward_setup = setup;
  forward_setup.arguments = {result};
  CallSetup node_setup = setup;
  node_setup.grad_mode = false;
  node_setup.arguments.clear();
  for (TensorArg a : setup.arguments) {
    if (cat.highest_backend(a.keys) != backend) continue;
    a.requires_grad = a.leaf = a.inference = false;
    node_setup.arguments.push_back(a);
  }
  for (const BackwardStep& step : plan->steps) bt.steps.push_back({step, {}});
  bt.verdict = conclude_backward(*plan, [&](std::size_t i, std::size_t, const BackwardCall& call) {
    BackwardTraceCall traced{call, std::nullopt, ""};
    BackwardCallVerdict v;
    if (const Operator* callee = registry.find(call.op)) {
      const BackwardPhase phase = plan->steps[i].phase;
      const bool forward_like = phase == BackwardPhase::SumForward || phase == BackwardPhase::Seed;
      traced.trace = trace_passed_call(registry, *callee, forward_like ? forward_setup : node_setup);
      v = verdict_of(cat, *traced.trace, dense);
      if (v.kind == BackwardCallVerdict::Kind::Unknown) traced.note = v.why;
    } else {
      v.why = "the registry has no operator " + call.op;
      traced.note = v.why;
    }
    bt.steps[i].calls.push_back(std::move(traced));
    return v;
  });
  // Steps after the raise never run.
  if (bt.verdict.outcome == BackwardVerdict::End::Raised) bt.steps.resize(bt.verdict.raises_step + 1);
  return bt;
}

}  // namespace dispatchctl
