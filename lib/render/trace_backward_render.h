// `trace --backward`'s part of the trace document (trace/backward.h): the
// backward's steps, each call's nested trace, and the backward's verdict, as
// text after the forward's trace and as the JSON object `backward`.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "render/trace_render.h"
#include "trace/backward.h"

namespace dispatchctl {

void append_backward_text(std::string& out, const Registry& registry, const BackwardTrace& backward,
                          const TraceRenderOptions& options);
nlohmann::ordered_json backward_json(const Registry& registry, const BackwardTrace& backward);
// "raised", "completed", "not_run", "unknown"
std::string_view backward_outcome_id(const BackwardTrace& backward);

}  // namespace dispatchctl
