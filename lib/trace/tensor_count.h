// How many tensors a traced call must pass: one per Tensor argument of the
// operator's schema (a Tensor? may be left out). Shared by `trace` and the
// Python module so both refuse a miscounted call with the same line.
#pragma once

#include <cstddef>

#include "registry/registry.h"

namespace dispatchctl {

// Throws InputError naming the Tensor arguments when `given` is not a count
// the schema takes; an operator without a parsable schema is not checked.
void check_tensor_count(const Operator& op, std::size_t given);

}  // namespace dispatchctl
