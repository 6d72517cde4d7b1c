// What `dispatchctl registries` lists: every registry built into this binary,
// loaded and counted, with the backends its build compiled. Rendered by
// render/registries_render.h.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "query/predicates.h"

namespace dispatchctl {

struct BuiltinRegistrySummary {
  std::string name;             // "builtin:2.14.1"
  std::string release;          // "2.14.1"
  std::string build;            // "CPU-only", "CUDA"
  std::string predicted_from;   // "" for a real registry
  std::string reference_build;  // what a real one was dumped from: "2.14.1 (Debian python3-torch …)"
  BuildBackends backends;
  size_t operators = 0, kernels = 0, fallbacks = 0;
  bool is_default = false;      // what every command uses without -m
  bool predicted() const { return !predicted_from.empty(); }
};

struct BuiltinInventory {
  std::vector<BuiltinRegistrySummary> registries;  // newest release first
  // The CUDA registries a CPU-only one points to: "builtin:2.6.0+cuda (real), …"; "" if none.
  std::string cuda_registries;
};

BuiltinInventory builtin_inventory();

}  // namespace dispatchctl
