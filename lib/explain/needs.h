// What to implement so an operator works at a backend key (issue 30, "forward
// and backward needs"): the operators whose rows are missing at that key that
// its call reaches, through what its kernels call (generated composites,
// recorded hand-written composites, an autograd kernel's backend row) — for
// the forward, and for the backward (its recorded backward calls and the
// gradient seed). Each with how many of the failing rows on those paths it
// unblocks; most first.
#pragma once

#include <vector>

#include "registry/registry.h"

namespace dispatchctl {

struct NeededOperator {
  const Operator* op = nullptr;  // register a kernel for it at the key
  std::size_t unblocks = 0;      // failing rows on the paths (this one's included) that need it
};

struct OperatorNeeds {
  Key key = k_undefined;
  std::vector<NeededOperator> forward, backward;
  bool forward_works = false;       // nothing missing on the forward's known paths
  bool backward_recorded = false;   // the release recorded what its backward calls
};

OperatorNeeds operator_needs(const Registry& registry, const Operator& op, Key k);

}  // namespace dispatchctl
