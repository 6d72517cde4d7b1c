// Renderers for `trace`: a step-by-step text view and stable JSON over one
// Trace (trace/trace.h).
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "trace/trace.h"
#include "util/wrap.h"

namespace dispatchctl {

struct TraceRenderOptions {
  bool color = false;
  std::vector<std::string> tls_steps;  // how the TLS came about (CallSetup::tls_steps)
  size_t width = k_default_width;      // text wraps to this many columns
};

void append_trace_text(std::string& out, const Registry& registry, const Trace& trace,
                       const TraceRenderOptions& options);
nlohmann::ordered_json trace_json(const Registry& registry, const Trace& trace,
                                  const TraceRenderOptions& options);
// "FULL_AFTER(AutogradOther)" for a redispatch mask, or the set itself.
std::string describe_mask(const Catalogue& cat, KeySet mask);
std::string_view outcome_id(Trace::End outcome);

}  // namespace dispatchctl
