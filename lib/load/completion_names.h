// Names for shell completion (`dispatchctl __complete`): operators and keys
// of the registry in use that start with what was typed. Runs on every TAB,
// so built-in registries load only the operators the prefix can match.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace dispatchctl {

// Sorted: every overload (aten::add.Tensor) and bare name (aten::add) starting with `prefix`.
std::vector<std::string> complete_operator_names(const std::vector<std::string>& sources, std::string_view prefix);
// Every key name of the sources' release starting with `prefix`, sorted.
std::vector<std::string> complete_key_names(const std::vector<std::string>& sources, std::string_view prefix);

}  // namespace dispatchctl
