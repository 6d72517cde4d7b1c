#include "render/trace_backward_render.h"

namespace dispatchctl {

namespace {

// "Could not run 'aten::fill_.Scalar' with arguments from the 'PrivateUse1' backend." without the backends list.
std::string first_sentence(const std::string& error) {
  const std::string line = error.substr(0, error.find('\n'));
  const std::size_t end = line.find(". ");
  return end == std::string::npos ? line : line.substr(0, end + 1);
}

std::string form_words(BackwardForm form) {
  return form == BackwardForm::Sum ? "out.sum().backward()" : "out.backward() (a 0-dim out)";
}

// The rows a nested call ran through, one word each: "AutogradPrivateUse1 > PrivateUse1 > call aten::as_strided > …".
std::string hop_chain(const Catalogue& cat, const Trace& t) {
  std::string chain;
  for (const Hop& hop : t.hops) {
    if (!chain.empty()) chain += " > ";
    chain += cat.name(hop.row.key);
    if (hop.action == HopAction::CallOperator) chain += " > call " + hop.callee;
  }
  return chain;
}

std::string call_summary(const Catalogue& cat, const BackwardTraceCall& c) {
  std::string text = c.call.op + (c.call.when == CallWhen::Always ? "" : " (some inputs)") + ": ";
  if (!c.trace) return text + "not traced (" + c.note + ")";
  const Trace& t = *c.trace;
  if (!c.note.empty()) return text + "unknown (" + c.note + ")";
  switch (t.outcome) {
    case Trace::End::Completed:
      text += t.assumed ? "returns if " + cat.name(t.hops.back().row.key) + "'s kernel does" : "returns";
      break;
    case Trace::End::Raised:
      text += "raises " + t.hops.back().error_type + " at " + t.calls[t.hops.back().call].op + ": " +
              first_sentence(t.hops.back().error);
      break;
    case Trace::End::Handoff: text += "handed off"; break;
  }
  return text + " [" + hop_chain(cat, t) + "]";
}

nlohmann::ordered_json nested_json(const Registry& registry, const Trace& t) {
  nlohmann::ordered_json j = trace_json(registry, t, {});
  for (const char* drop : {"schema_version", "torch_version", "tls_steps", "stale_rows"}) j.erase(drop);
  return j;
}

}  // namespace

std::string_view backward_outcome_id(const BackwardTrace& b) {
  switch (b.start) {
    case BackwardTrace::Start::ForwardRaises: return "not_run";
    case BackwardTrace::Start::ForwardUnknown:
    case BackwardTrace::Start::NotRecorded: return "unknown";
    case BackwardTrace::Start::Runs: break;
  }
  return b.verdict.outcome == BackwardVerdict::End::Raised ? "raised" : "completed";
}

void append_backward_text(std::string& out, const Registry& registry, const BackwardTrace& b,
                          const TraceRenderOptions& options) {
  const Catalogue& cat = registry.catalogue();
  const size_t width = options.width;
  out += "\n" + wrap_words("backward, " + form_words(b.form) + ", after the forward:", 0, 2, width) + "\n";
  if (b.start != BackwardTrace::Start::Runs) {
    out += wrap_words("  " + b.start_note, 0, 4, width) + "\n";
    return;
  }
  int number = 0;
  for (const BackwardTraceStep& s : b.steps) {
    out += wrap_words("  " + std::to_string(++number) + ". " + s.step.what, 0, 5, width) + "\n";
    if (!s.step.recorded) out += "       not recorded: unknown\n";
    if (!s.step.calls_certain) out += wrap_words("       (no call certain: " + s.step.uncertain + ")", 0, 8, width) + "\n";
    for (const BackwardTraceCall& c : s.calls) out += wrap_words("       " + call_summary(cat, c), 0, 9, width) + "\n";
  }
  std::string result = "backward result: ";
  const BackwardVerdict& v = b.verdict;
  if (v.outcome == BackwardVerdict::End::Raised) {
    // The whole message is the raising hop's, in the step's nested trace (--format json).
    result += "PyTorch raises " + v.error_type + " at " + v.raises_at + ": " + first_sentence(v.error);
    if (!v.error_caveat.empty()) result += " (certain; this text unless " + v.error_caveat + ")";
  } else {
    result += "returns (assumed:";
    for (std::size_t i = 0; i < v.assumptions.size(); ++i) result += (i ? "; " : " ") + v.assumptions[i];
    result += ")";
  }
  out += "\n" + wrap_words(result, 0, 8, width) + "\n";
}

nlohmann::ordered_json backward_json(const Registry& registry, const BackwardTrace& b) {
  nlohmann::ordered_json j;
  j["form"] = backward_form_id(b.form);
  j["outcome"] = backward_outcome_id(b);
  if (b.start != BackwardTrace::Start::Runs) {
    j["assumed"] = b.start != BackwardTrace::Start::ForwardRaises;
    j["note"] = b.start_note;
    return j;
  }
  const BackwardVerdict& v = b.verdict;
  j["assumed"] = v.assumed;
  if (v.outcome == BackwardVerdict::End::Raised) {
    j["error_type"] = v.error_type;
    j["error"] = v.error;
    j["raises_at"] = v.raises_at;
    j["raises_in"] = backward_phase_id(b.steps[v.raises_step].step.phase);
    if (!v.error_caveat.empty()) j["error_caveat"] = v.error_caveat;
  } else {
    j["assumptions"] = v.assumptions;
  }
  j["steps"] = nlohmann::ordered_json::array();
  for (const BackwardTraceStep& s : b.steps) {
    nlohmann::ordered_json step;
    step["phase"] = backward_phase_id(s.step.phase);
    step["what"] = s.step.what;
    step["recorded"] = s.step.recorded;
    if (!s.step.calls_certain) {
      step["calls_certain"] = false;
      step["uncertain"] = s.step.uncertain;
    }
    step["calls"] = nlohmann::ordered_json::array();
    for (const BackwardTraceCall& c : s.calls) {
      nlohmann::ordered_json call;
      call["operator"] = c.call.op;
      call["when"] = call_when_id(c.call.when);
      if (!c.note.empty()) call["note"] = c.note;
      if (c.trace) call["trace"] = nested_json(registry, *c.trace);
      step["calls"].push_back(std::move(call));
    }
    j["steps"].push_back(std::move(step));
  }
  return j;
}

}  // namespace dispatchctl
