// The kinds of kernels trace tells apart by their functionality key (what a
// kernel at AutogradCPU, ADInplaceOrView, Conjugate, Autocast … does by
// default), with the TLS guard each holds while it passes the call on: one
// name-keyed table (kernel_kinds.cpp), used by behaviour.cpp.
#pragma once

#include <string_view>

#include "trace/trace.h"

namespace dispatchctl {

enum class FunctionalityKind {
  Autograd, AdInplaceOrView, ResolveBit, Functionalize, Autocast, BackendSelect, RedispatchAfter, Handoff
};

// What the kernels and fallbacks of non-backend functionality keys do, by
// key name (same in every release; keys a release lacks never match), with
// the TLS guard each holds while it passes the call on (checked against
// PyTorch's source and live 1.13.1 calls, tests/e2e/test_trace_live.py).
// Release-dependent behaviour (the autograd backend fallback) is ReleaseSpec
// data.
struct FunctionalityKindRow {
  std::string_view key;  // functionality name; "Autocast" stands for every Autocast key
  FunctionalityKind kind;
  std::string_view kind_words;  // "autograd kernels (generated VariableType)"
  std::string_view guard_name;  // "" = holds no guard
  std::string_view guard_keys;  // space separated; "*" = the row's own key
  std::string_view handler;     // Handoff: who takes over
};

// The kind of a functionality key by name; nullptr for a backend or unknown key.
const FunctionalityKindRow* find_kind(std::string_view functionality);
// The guard of a kind, resolved for the row's key and the release's keys.
TlsGuard guard_of(const Catalogue& cat, const FunctionalityKindRow& kind, Key row_key);
// The FULL_AFTER mask a kind redispatches with (§5.2).
KeySet redispatch_mask(const Catalogue& cat, const FunctionalityKindRow* kind, Key k);

}  // namespace dispatchctl
