// has-kernel --works's backward answer: does `out.sum().backward()` after a
// call that reaches K work (table/backward_plan.h's steps, each call the
// backward makes followed as a row of K's backend at its autograd key, the
// key the engine's calls enter at, with table/outcome.h's follower). Asked
// for a differentiable operator (one whose backward the release recorded, or
// a CompositeImplicitAutograd one) at a dense backend key or its autograd key.
#pragma once

#include <optional>
#include <string>

#include "query/has_kernel.h"
#include "table/backward_plan.h"

namespace dispatchctl {

// nullopt: not asked (an operator that is not differentiable, a key that is
// not a backend's, a registry without a recorded backward).
std::optional<HasKernelBackward> answer_has_kernel_backward(const Registry& registry, const Operator& op, Key k,
                                                            const HasKernelResult& forward);

}  // namespace dispatchctl
