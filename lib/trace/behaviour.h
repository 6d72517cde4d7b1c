// What the kernel in a table row does when it runs: the modelling behind
// `trace` (docs/dispatch-semantics.md §5.2, §9.1). Kernels are opaque strings to
// dispatchctl, so behaviour follows PyTorch's conventions per kernel kind
// (one name-keyed table in behaviour.cpp): backend rows compute, autograd
// rows redispatch after autograd under VariableType's TLS guard,
// Functionalize and Autocast call again from the top under theirs, and so
// on. A manifest kernel's "then" overrides the default for its kind.
#pragma once

#include <string>

#include "live/live_table.h"
#include "trace/trace.h"

namespace dispatchctl {

struct Behaviour {
  HopAction action = HopAction::Return;
  bool declared = false;  // from the kernel's "then"
  bool kernel_decides = false;  // Return: the kernel's own code decides whether it returns
  std::string assumed;    // the kind whose default this is, or the declaration
  std::string does;
  TlsGuard guard;              // Redispatch / FreshCall
  KeySet mask;                 // Redispatch
  Key resolves = k_undefined;  // Redispatch after resolving a bit on the inputs
  bool backend_select = false; // Redispatch whose set comes from the factory arguments
  const Operator* callee = nullptr;  // CallOperator
  std::string caveat;                // CallOperator: code that runs before the call and may raise first
  std::string error_type, error;
  std::string consequence;
};

// `self_leaf_requires_grad`: the call's first tensor (an in-place op's self)
// is a leaf that requires grad, which generated in-place autograd kernels refuse.
// `writes_inference_tensor`: the call writes (in place or out=) an inference
// tensor outside inference mode, which the generated ADInplaceOrView and
// autograd kernels refuse (trace/generated_kernels.h).
Behaviour behaviour_of(const Registry& registry, const Operator& op, const LiveTable& live,
                       const Row& row, bool grad_mode, bool self_leaf_requires_grad = false,
                       bool writes_inference_tensor = false);

// PyTorch's error for a call that reaches a missing row (§4.3): Undefined or
// "Could not run …", then the computed table.
std::string missing_row_message(const Registry& registry, const Operator& op,
                                const LiveTable& live, Key key);

}  // namespace dispatchctl
