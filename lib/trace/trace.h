// Simulates one call through PyTorch's dispatcher (docs/dispatch-semantics.md
// §5): the key set of the call, then every kernel that runs (a hop), in
// order, following the *live* table (§3.3), until a kernel returns or
// PyTorch would raise. One result model; renderers are in
// render/trace_render.h.
#pragma once

#include <string>
#include <vector>

#include "live/live_table.h"
#include "trace/call_input.h"

namespace dispatchctl {

// How a call's key set is computed (§5.1); one per call (the top-level call
// and each fresh call a Functionalize or Autocast kernel makes).
struct KeySetComputation {
  std::string op;      // the operator called: the traced one, or what a generated composite calls
  std::string reason;  // "the call" / "fresh call from Functionalize …"
  std::vector<TensorArg> arguments;
  KeySet tensor_union;
  // The TLS the call sees: the user's, plus every guard held up the stack.
  KeySet tls_included, tls_excluded;
  KeySet after_tls;    // (union | included) - excluded
  int mask_backend = 0;  // backend whose fallthrough mask applies (1-based; 0 = none: CPU's)
  KeySet mask;         // the operator's live non-fallthrough mask for that backend
  KeySet dispatch;     // after_tls & mask: what the first kernel receives
  Key highest = k_undefined;
};

enum class HopAction {
  Return,      // computes the result (backend kernels, composite kernels)
  Redispatch,  // continues with received & mask (§5.2)
  FreshCall,   // calls the operator again from the top, under its TLS guard
  CallOperator,  // a generated composite calls another operator from the top (Hop::callee)
  Raise,       // PyTorch raises here
  Handoff,     // hands the call to code dispatchctl does not model (Python, functorch)
};
std::string_view action_id(HopAction action);  // "return", "redispatch" …

// A TLS guard a kernel holds while it redispatches or calls afresh, e.g.
// VariableType's AutoDispatchBelowADInplaceOrView: its keys join TLS
// excluded for everything that runs below the kernel.
struct TlsGuard {
  std::string name;  // "" = the kernel holds none
  KeySet excludes;
  std::string keys;  // the excluded keys by name ("AutogradFunctionality" prints in no key set)
};

struct Hop {
  int call = 0;  // index into Trace::calls
  Row row;       // live row that ran
  Row computed;  // what _dispatch_dump_table shows for the key
  bool stale = false;
  std::string stale_reason;
  KeySet received;  // key set the kernel is called with
  KeySet tls_included, tls_excluded;  // the TLS in effect while the kernel runs
  HopAction action = HopAction::Return;
  bool declared = false;  // action from the manifest's "then", else the default for the kind
  bool kernel_decides = false;  // Return: only the kernel's own code decides whether it returns
  std::string assumed;    // why this action: the kind it is the default for, or the declaration
  std::string does;  // what the kernel does, one sentence (the modelling)
  TlsGuard guard;    // Redispatch/FreshCall: held while it passes the call on
  KeySet mask;       // Redispatch: FULL_AFTER mask applied
  KeySet next;       // Redispatch: the set passed on
  Key resolves = k_undefined;  // Conjugate/Negative/ZeroTensor: bit resolved on the inputs
  std::string callee;           // CallOperator: the operator called ("aten::add.out")
  std::string error_type;      // Raise: NotImplementedError / RuntimeError
  std::string error;           // Raise: PyTorch's message
  std::string consequence;     // e.g. the autograd fallback's missing gradients
};

struct Trace {
  std::string op;
  std::vector<KeySetComputation> calls;
  std::vector<Hop> hops;
  enum class End { Completed, Raised, Handoff } outcome = End::Completed;
  // Completed at a kernel whose internals decide (hand-written, Python): the
  // call returns if that kernel does; no table can say more.
  bool assumed = false;
  // Raised after a generated structured composite called its out= op: the
  // call raises for sure, and with this error unless the composite's meta
  // function raised first (its code decides): why the text is not certain.
  std::string error_caveat;
  std::vector<Key> stale_keys;  // every stale live row of the operator
};

Trace trace_call(const Registry& registry, const Operator& op, const CallSetup& setup);
// The live table a trace follows; trace_call computes it itself.
Trace trace_call(const Registry& registry, const Operator& op, const CallSetup& setup,
                 const LiveTable& live);
// A call a kernel makes with tensors it passes on (bound to the callee's
// schema as a composite's callee calls are, never refused): the backward's calls.
Trace trace_passed_call(const Registry& registry, const Operator& op, const CallSetup& setup);

}  // namespace dispatchctl
