// A value derived from a catalogue, built on first use and kept for the
// process (catalogues live as long as it): the table's key masks, the torch
// renderer's spelled-out row pieces. Thread-safe.
#pragma once

#include <memory>
#include <mutex>
#include <unordered_map>

#include "keys/catalogue.h"

namespace dispatchctl {

// Each call site (its `build` lambda's type) has a cache of its own.
template <typename T, typename Build>
const T& once_per_catalogue(const Catalogue& cat, Build&& build) {
  static std::mutex mutex;
  static std::unordered_map<const Catalogue*, std::unique_ptr<T>> built;
  std::lock_guard lock(mutex);
  auto& slot = built[&cat];
  if (!slot) slot = std::make_unique<T>(build(cat));
  return *slot;
}

}  // namespace dispatchctl
