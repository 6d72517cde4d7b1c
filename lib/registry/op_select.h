// Which operators a command-line OP argument means: a full name
// (aten::add.Tensor), a bare name meaning every overload (aten::add), or a
// glob ('aten::add*', '*').
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "registry/registry.h"
#include "registry/torch_dump.h"

namespace dispatchctl {

bool is_glob(std::string_view pattern);
// fnmatch-style: * ? and [abc]; the whole name must match.
bool glob_match(std::string_view pattern, std::string_view name);
// Python's spellings as dispatchctl names them: torch.ops.aten.add.Tensor and
// aten.add.Tensor -> aten::add.Tensor (NAME.default still means the unnamed
// overload only).
std::string canonical_op_pattern(std::string_view pattern);
// A full name matches itself, a bare name (aten::nonzero) every overload
// including the unnamed one, a glob what it matches.
bool op_matches(std::string_view pattern, std::string_view op_name);
// Sorted by name, without repeats. InputError (with did-you-mean) for a
// pattern, glob or not, that names no operator.
std::vector<const Operator*> select_operators(const Registry& registry,
                                              const std::vector<std::string>& patterns);

// What a loader may keep of a source for these patterns (a built-in pack reads
// only the operators under each pattern's name prefix): load/selection.h loads so.
OperatorPrefixes operators_matching(const std::vector<std::string>& patterns);

}  // namespace dispatchctl
