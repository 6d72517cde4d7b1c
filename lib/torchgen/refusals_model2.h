// More of model.py's and gen.py's asserts (refusals_model2.cpp): an entry's
// ufunc_inner_loop as NativeFunction.from_yaml reads it, and the C++
// namespaces of an operator's kernels.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "torchgen/grouping.h"
#include "torchgen/model.h"
#include "torchgen/release_rules.h"

namespace dispatchctl::torchgen {

// NativeFunction.from_yaml on `ufunc_inner_loop:` (UfuncKey.parse,
// UfuncInnerLoop.parse, ScalarType.parse_set; a plain string is the Generic
// entry): "" when torchgen reads it, else its assertion. `entries` are the
// key / value pairs as written.
// UfuncInnerLoop.parse: the dtypes of one `NAME (DTYPE, DTYPE, ...)` value as
// written, or "" in `problem` when torchgen reads it, else its assertion.
std::vector<std::string> inner_loop_dtypes(const std::string& value, std::string& problem);

std::string ufunc_inner_loop_problem(const std::vector<std::pair<std::string, std::string>>& entries,
                                     const ReleaseRules& rules);

// model.py Precompute.parse / __post_init__ on a `precomputed:` list: "" when
// torchgen reads it, else its assertion (replaced-by lines `ARG -> DECL, DECL`,
// an optional last line of added DECLs; no all-uppercase names).
std::string precomputed_problem(const std::vector<std::string>& lines);

// model.py Type.parse: the first base type of the schema that is no BaseTy
// of the release (rules' base_types; `Dimname` is gone in 2.14), "" if none.
std::string unrecognized_type(const FunctionSchema& schema, const ReleaseRules& rules);

// A kernel with more namespace levels than NamespaceHelper(max_level=3)
// takes (model.py), and an operator whose kernels are in more than one C++
// namespace (gen.py get_native_function_declarations_from_ns_grouped_kernels:
// "Codegen only supports one namespace per operator"; a NativeFunctionsGroup's
// out= kernels stand for it).
void check_kernel_namespaces(const TorchgenModel& model, const ReleaseRules& rules,
                             const std::vector<SignatureGroup>& groups, std::vector<Refusal>& out);

// One cause, one finding: the operators whose structured_delegate names the
// same missing out= (a deleted one) give one delegate-missing refusal, at the
// first of them, naming the others, and none of them is also refused as a
// mutable operator outside every group; a formula naming no function and the
// lone out= of that function's signature give the formula's refusal, naming
// the out= (paired by torchgen's signature()). `refusals` are in file and
// line order.
void merge_same_cause(const TorchgenModel& model, std::vector<Refusal>& refusals);

}  // namespace dispatchctl::torchgen
