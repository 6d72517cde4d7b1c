// What the kernel in a table row does when it runs: the modelling behind
// `trace` (dispatch-semantics.md §5.2, §9.1). Kernels are opaque strings to
// dispatchctl, so behaviour follows PyTorch's conventions per key: backend
// rows compute, autograd rows redispatch after autograd, Functionalize and
// Autocast call again from the top, and so on.
#pragma once

#include <string>

#include "live/live_table.h"
#include "trace/trace.h"

namespace dispatchctl {

struct Behaviour {
  HopAction action = HopAction::Return;
  std::string does;
  KeySet mask;                 // Redispatch
  Key resolves = k_undefined;  // Redispatch after resolving a bit on the inputs
  Key excludes = k_undefined;  // FreshCall
  bool backend_select = false; // Redispatch whose set comes from the factory arguments
  std::string error_type, error;
};

Behaviour behaviour_of(const Registry& registry, const Operator& op, const LiveTable& live,
                       const Row& row, bool grad_mode);

// PyTorch's error for a call that reaches a missing row (§4.3): Undefined or
// "Could not run …", then the computed table.
std::string missing_row_message(const Registry& registry, const Operator& op,
                                const LiveTable& live, Key key);

}  // namespace dispatchctl
