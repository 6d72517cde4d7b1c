// `trace --calls FILE`: many calls in one run (the registry is loaded once).
// The file is JSON Lines, one call per line, its fields named after trace's
// options:
//   {"operator": "aten::add_.Tensor", "tensors": ["cpu:leaf", "cpu"],
//    "keysets": [], "autocast": ["cpu"], "inference_mode": false,
//    "no_grad": true, "tls_include": [], "tls_exclude": [], "backward": "sum"}
// Only "operator" is required; blank lines are skipped. A call's "keysets"
// are its tensor arguments after its "tensors". "backward" (trace --backward):
// true or "sum" (out.sum().backward()), "seed" (out.backward() on a 0-dim
// out), false or absent: the forward only.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "table/backward_plan.h"
#include "trace/call_input.h"

namespace dispatchctl {

struct CallRequest {
  std::string where;     // "FILE:LINE", for messages about this call
  std::string op;        // as the user wrote it (the OP of `trace OP`)
  CallOptions options;   // --tensor, --keyset, --autocast … of that call
  std::optional<BackwardForm> backward;  // --backward[=sum|seed]
};

// Throws InputError naming FILE:LINE and the field for a line that is not such
// an object (unknown fields with did-you-mean).
std::vector<CallRequest> parse_call_list(std::string_view text, const std::string& source);

}  // namespace dispatchctl
