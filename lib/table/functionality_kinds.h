// What the kernels and fallbacks of non-backend functionality keys do, by key
// name (the same in every release; keys a release lacks never match): the one
// table (issue 32) that `table/outcome` (what a fallback row does, whether it
// raises) and `trace` (the behaviour it simulates, the TLS guard it holds)
// both read, and trace's help describes. Checked against PyTorch's source and
// live 1.13.1 calls (tests/e2e/test_trace_live.py). Release-dependent
// behaviour (the autograd and Meta backend fallbacks) is ReleaseSpec data.
#pragma once

#include <span>
#include <string_view>

namespace dispatchctl {

enum class FunctionalityKind {
  Autograd, AdInplaceOrView, ResolveBit, Functionalize, Autocast, BackendSelect, RedispatchAfter, Handoff,
  NamedNotSupported,  // the Named fallback (makeNamedNotSupported): raises for every operator it reaches
};

struct FunctionalityKindRow {
  std::string_view key;  // functionality name; "Autocast" stands for every Autocast key
  FunctionalityKind kind;
  std::string_view kind_words;     // "autograd kernels (generated VariableType kernels)"
  std::string_view guard_name;     // "" = holds no guard
  std::string_view guard_keys;     // space separated; "*" = the row's own key
  std::string_view handler;        // Handoff: who takes over
  std::string_view fallback_does;  // what the key's backend fallback does ("" = runs, one kernel for every operator)
  bool fallback_raises() const { return kind == FunctionalityKind::NamedNotSupported; }
};

// The kind of a functionality key by name; nullptr for a backend or unknown key.
const FunctionalityKindRow* find_kind(std::string_view functionality);
std::span<const FunctionalityKindRow> functionality_kinds();

}  // namespace dispatchctl
