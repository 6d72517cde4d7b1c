// The operators a backend tracks: a list of exact overload names (`--ops-from
// FILE`, e.g. recorded from a model by tools/record-model-ops.py) or a set the
// release tags (`--opset core`, builtin/opsets.h). Exact means exact: a bare
// name is the unnamed (default) overload, aten::addmm is not aten::addmm.out.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "registry/registry.h"

namespace dispatchctl {

struct OperatorSet {
  std::string label;               // "the core opset of PyTorch 2.14.1", "model_ops.txt"
  std::vector<std::string> names;  // as PyTorch's dumps name them: aten::add.Tensor, aten::addmm
};

// One exact overload name a line; `#` starts a comment; blank lines are
// skipped; Python's spellings (aten.addmm.default, torch.ops.aten.add.Tensor)
// are accepted. InputError "WHERE:LINE: …" on a glob or a name without a
// namespace.
OperatorSet parse_operator_list(std::string_view text, const std::string& where);
// --ops-from FILE ("-" is standard input).
OperatorSet read_operator_list(const std::string& path);
// --opset NAME for the registry's release; InputError naming what is recorded
// and how to record one otherwise.
OperatorSet builtin_operator_set(const std::string& torch_version, const std::string& name);

// An exact name as a pattern of registry/op_select.h: aten::addmm ->
// aten::addmm.default (only the unnamed overload), others unchanged.
std::string exact_pattern(std::string_view name);

// The set's operators the registry holds, as patterns for select_operators
// (exact_pattern), and the names it does not hold.
struct OperatorSetInRegistry {
  std::vector<std::string> patterns;
  std::vector<std::string> absent;
};
OperatorSetInRegistry find_operator_set(const Registry& registry, const OperatorSet& set);
// "3 operators of model_ops.txt are not in builtin:2.6.0+cuda: aten::a, aten::b, aten::c": the note
// a command prints for OperatorSetInRegistry::absent ("" when none).
std::string absent_operators_note(const Registry& registry, const OperatorSet& set,
                                  const std::vector<std::string>& absent);

}  // namespace dispatchctl
