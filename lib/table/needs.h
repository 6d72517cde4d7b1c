// What to implement so an operator works at a backend key (issue 30, "forward
// and backward needs"): the operators whose rows at that key are missing (or
// raise: a raising backend fallback) that its call reaches, through what its
// kernels call (generated composites, recorded hand-written composites, an
// autograd kernel's backend row: the outcome model's edges, table/outcome.h) —
// for the forward, and for the backward (its recorded backward calls and the
// gradient seed). Each with how many of the failing rows on those paths it
// unblocks; most first. One analysis: `explain OP --key K` asks it of one
// operator, `report` of every operator of its page (key_needs).
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

// One operator to implement at a key, over a set of operators (report's page):
// the operators of the set whose forward (or backward) needs it.
struct NeededAtKey {
  const Operator* op = nullptr;
  bool in_set = false;                 // one of the set's operators (else a callee outside it)
  std::vector<const Operator*> rows;   // the set's operators it unblocks, by name
};
struct KeyNeeds {
  Key key = k_undefined;
  std::vector<NeededAtKey> forward, backward;  // most rows unblocked first, then by name
  std::size_t rows_needing = 0;                // operators of the set with a forward need
  std::size_t backward_recorded = 0;           // operators of the set whose backward the release recorded
};

// `ops` sorted by name (report's rows). Every operator's needs, aggregated.
KeyNeeds key_needs(const Registry& registry, const std::vector<const Operator*>& ops, Key k);

}  // namespace dispatchctl
