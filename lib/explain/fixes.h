// Registrations that would fill a missing (or raising) row, found by
// replaying the operator's registrations into a scratch registry with one
// more kernel and recomputing its table (no second copy of §3.2).
#pragma once

#include <vector>

#include "explain/explain.h"

namespace dispatchctl {

// Candidates, in the order a user would consider them: a kernel at `k`
// itself, at each alias covering `k` (precedence order), then a backend
// fallback for `k` when it has none. At an out-of-tree backend's key
// (PrivateUse1, AutogradPrivateUse1 …) for PyTorch's own operator only what
// that backend can register: a kernel at `k`, the fallback (the alias keys'
// composite kernels are PyTorch's). `table` is the operator's current table.
std::vector<Fix> find_fixes(const Registry& registry, const Operator& op, Key k,
                            const std::vector<Row>& table);

}  // namespace dispatchctl
