// `diff --touching FILE`: the operators a backend's manifest touches — those it
// defines or registers kernels for — and those whose composites reach them,
// followed with the one outcome model (table/outcome.h classify_followed: what
// a composite's row at a key calls), so what the model learns to follow, this
// follows too.
#pragma once

#include <functional>
#include <set>
#include <string>
#include <vector>

#include "registry/registry.h"

namespace dispatchctl {

// `files` must be sources of one side (an Origin names them); InputError
// otherwise. The composites are followed at `keys` (runtime key names), or,
// when empty, at the runtime keys the files register kernels at.
std::set<std::string, std::less<>> touching_operators(const Registry& old_registry, const Registry& new_registry,
                                                      const std::vector<std::string>& files,
                                                      const std::vector<std::string>& keys);

}  // namespace dispatchctl
