// Which schema argument each tensor of a traced call is (trace's --tensor and
// --keyset, in argument order): the one binding trace, its --calls list and
// the Python module use, worked out once per call from one parse of the
// schema. A Tensor? may be left out; the ones given are the first ones, as
// Python's positional arguments fill them. Several Tensor[] arguments take
// the same number of tensors each, as the foreach operators require; a count
// that more than one reading fits is refused rather than guessed.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "registry/registry.h"

namespace dispatchctl {

struct TensorBinding {
  // Per tensor given, in the call's order: its schema argument's name ("" for
  // one a vararg schema takes past its arguments) and whether the schema
  // writes it (`Tensor(a!)`). Empty when the operator has no parsable schema.
  std::vector<std::string> names;
  std::vector<bool> written;
  // torchgen's SchemaKind.out: it writes a keyword-only tensor (`*, Tensor(a!) out`).
  bool out_operator = false;
};

// The tensors a caller passes: throws InputError, naming the Tensor arguments,
// for a count the schema cannot take or a binding more than one reading fits.
// An operator without a parsable schema binds nothing and refuses nothing.
TensorBinding bind_tensor_arguments(const Operator& op, std::size_t given);

// The tensors a composite passes the operator it calls (trace's callee
// calls): bound as above when they fit, else in order, one per argument,
// the ones it lacks made inside the composite (an out= it allocates).
TensorBinding bind_passed_tensors(const Operator& op, std::size_t given);

}  // namespace dispatchctl
