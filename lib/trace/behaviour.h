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
#include "trace/bind_arguments.h"
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
  // Code of this kernel that runs before it passes the call on and may raise
  // an error of its own (a generated autograd kernel setting up backward, an
  // autocast kernel's casts): a raise further down is then certain, its text not.
  std::string may_raise_first;
  // What raises once the call below returns (an inference tensor's version bump).
  std::string after_return_error_type, after_return_error, after_return_does;
};

// What the kernels check about a call beyond its key set.
struct CallFacts {
  bool grad_mode = true;                 // not inside torch.no_grad()
  bool self_leaf_requires_grad = false;  // the first tensor (an in-place op's self) is a leaf requiring grad
  bool any_requires_grad = false;        // some tensor argument requires grad
  bool writes_inference_tensor = false;  // a written argument is an inference tensor, outside inference mode
  bool writes_leaf = false;              // a written argument (in place or out=) is a leaf that requires grad
  std::vector<bool> requires_grad;       // per tensor argument, in the call's order
  TensorBinding binding;                 // which schema argument each tensor is
};

// `facts.self_leaf_requires_grad`: generated in-place autograd kernels refuse
// it; `facts.writes_inference_tensor`: the generated ADInplaceOrView and
// autograd kernels raise once the call below returns (trace/generated_kernels.h).
Behaviour behaviour_of(const Registry& registry, const Operator& op, const LiveTable& live,
                       const Row& row, const CallFacts& facts);

// PyTorch's error for a call that reaches a missing row (§4.3): Undefined or
// "Could not run …", then the computed table.
std::string missing_row_message(const Registry& registry, const Operator& op,
                                const LiveTable& live, Key key);

}  // namespace dispatchctl
