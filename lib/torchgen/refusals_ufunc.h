// What torchgen.gen refuses while it writes a ufunc operator's kernels
// (dest/ufunc.py compute_ufunc_cpu_kernel / compute_ufunc_cuda, api/ufunc.py,
// api/translate.py), read assert by assert in torchgen 2.14.1's source: the
// inner loops parse (refusals_model2.h) but cannot be turned into C++.
#pragma once

#include <vector>

#include "torchgen/grouping.h"
#include "torchgen/model.h"
#include "torchgen/release_rules.h"

namespace dispatchctl::torchgen {

// Every structured NativeFunctionsGroup whose out= has ufunc_inner_loop, as
// gen.py's per-dispatch-key loop writes it, CPU first, then CUDA: its
// functional's arguments (api/ufunc.py types only Tensor, Scalar and, for
// the CUDA functors, value types; the CPU loop passes only Tensors and
// Scalars; the binary scalar specialization names `self` and `other`), and
// which loops cover which dtypes (a CPUVector loop needs a CPUScalar one, a
// CUDAFunctorOnSelf / OnOther one a CUDAFunctor one and a binary operator;
// CUDA needs a Generic or ScalarOnly loop unless its functors are written).
// One refusal per operator, at its out= entry.
void check_ufunc_kernels(const TorchgenModel& model, const ReleaseRules& rules,
                         const std::vector<SignatureGroup>& groups, std::vector<Refusal>& out);

}  // namespace dispatchctl::torchgen
