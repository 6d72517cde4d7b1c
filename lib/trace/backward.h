// `trace --backward`: what `out.sum().backward()` (or `out.backward()` on a
// 0-dim out) does after the traced forward, step by step as
// table/backward_plan.h orders it, each call the backward makes traced as a
// nested call (trace_passed_call: the same hops, rows and recorded
// composites as any trace) on the backend the forward's output lives on.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "table/backward_plan.h"
#include "trace/trace.h"

namespace dispatchctl {

struct BackwardTraceCall {
  BackwardCall call;
  std::optional<Trace> trace;  // absent: not traced (an operator the registry lacks)
  std::string note;            // why not traced, or what the call's outcome means here
};

struct BackwardTraceStep {
  BackwardStep step;
  std::vector<BackwardTraceCall> calls;  // traced in order, up to the raise
};

struct BackwardTrace {
  BackwardForm form = BackwardForm::Sum;
  // Whether the backward runs at all: the forward returned (or its kernel decides).
  enum class Start : std::uint8_t { Runs, ForwardRaises, ForwardUnknown, NotRecorded } start = Start::Runs;
  std::string start_note;  // why it does not run / is not known
  std::vector<BackwardTraceStep> steps;
  BackwardVerdict verdict;
};

// `forward` is trace_call's answer for the same operator and setup.
BackwardTrace trace_backward(const Registry& registry, const Operator& op, const CallSetup& setup,
                             const Trace& forward, BackwardForm form);

}  // namespace dispatchctl
