// What a hand-written composite does in a trace where the release's
// recording says what it calls (Registry::composite_calls,
// docs/composite-calls.md): a stub raises its recorded message; otherwise
// each callee every call makes is traced in turn, as the composite calls it
// (a fresh call with the same tensors under the guards held up the stack),
// and the first that certainly raises is the one the trace follows into
// (HopAction::CallOperator), as trace follows a generated composite. Callees
// that only some inputs call, and those whose own kernels decide, leave the
// composite's return assumed, as before.
#pragma once

#include <functional>
#include <optional>

#include "trace/behaviour.h"

namespace dispatchctl {

// `trace_callee` traces a call of the callee from the composite (nullopt: too deep to follow).
using TraceCallee = std::function<std::optional<Trace>(const Operator& callee)>;
// `kind`: the kind of tensor the call's tensors are (trace.cpp recording_kind),
// whose recording is followed.
std::optional<Behaviour> recorded_composite_behaviour(const Registry& registry, const Operator& op, const Row& row,
                                                      Key kind, const TraceCallee& trace_callee);

}  // namespace dispatchctl
