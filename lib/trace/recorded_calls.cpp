#include "trace/recorded_calls.h"

#include "table/outcome.h"

namespace dispatchctl {

std::optional<Behaviour> recorded_composite_behaviour(const Registry& registry, const Operator& op, const Row& row,
                                                      Key kind, const TraceCallee& trace_callee) {
  if (!row.kernel || row.rule == Rule::BackendFallback) return std::nullopt;
  const CompositeCalls* calls = recorded_calls_on(registry, *row.kernel, kind);
  if (!calls) return std::nullopt;
  const std::string recorded = "recorded from PyTorch " + registry.torch_version() + " on " +
                               registry.catalogue().name(kind) + " tensors (docs/composite-calls.md)";
  if (calls->raises && calls->raises_when == CallWhen::Always) {
    Behaviour b;
    b.action = HopAction::Raise;
    b.error_type = std::string(calls->raises_type.value_or("NotImplementedError"));
    b.error = std::string(*calls->raises);
    b.does = "the hand-written composite kernel of " + std::string(op.name) + " always raises (a stub)";
    b.assumed = "what the kernel does, " + recorded;
    return b;
  }
  for (const RecordedCall& c : calls->calls) {
    if (c.when != CallWhen::Always) continue;
    const Operator* callee = registry.find(c.op);
    if (!callee || callee == &op) return std::nullopt;
    const std::optional<Trace> t = trace_callee(*callee);
    if (!t || t->outcome == Trace::End::Handoff) return std::nullopt;
    // The recording saw the call carry a tensor of the kind; a trace of the
    // callee that leaves it (a factory such as empty_quantized, whose
    // BackendSelect trace takes to the CPU) is not the call PyTorch makes.
    if (t->calls.empty() || !registry.catalogue().has(t->calls.front().dispatch, kind) ||
        (!t->hops.empty() && !registry.catalogue().has(t->hops.back().received, kind)))
      return std::nullopt;
    if (t->outcome == Trace::End::Completed) continue;  // it returns (or its kernel decides): the next one
    if (t->assumed) return std::nullopt;
    Behaviour b;
    b.action = HopAction::CallOperator;
    b.callee = callee;
    b.does = "the hand-written composite kernel of " + std::string(op.name) + " calls " + std::string(callee->name) +
             " through the dispatcher (a fresh call: its key set is recomputed from the tensors and the TLS)";
    b.assumed = "what the kernel calls, " + recorded;
    b.caveat = "the hand-written composite kernel of " + std::string(op.name) + ", whose code runs before it calls " +
               std::string(callee->name) + ", raises its own error first (its code decides)";
    return b;
  }
  return std::nullopt;  // every callee returns, if its kernel does: the composite's own code decides
}

}  // namespace dispatchctl
