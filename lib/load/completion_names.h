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
// Which keys an option accepts, so TAB offers none the command then rejects.
enum class KeyClass {
  Any,             // registrations: runtime keys, building blocks, aliases, functionalities
  Runtime,         // table rows (report --key)
  RuntimeOrAlias,  // explain --key, check --require
  Alias,           // keys --alias
  NotAlias,        // what a tensor or the TLS carries (--tls-include)
};
// The key names of the sources' release of that class starting with `prefix`, sorted.
std::vector<std::string> complete_key_names(const std::vector<std::string>& sources, std::string_view prefix,
                                            KeyClass accepted = KeyClass::Any);
// `trace --tensor`: the release's presets, and after "PRESET:" its modifiers
// ("cpu:conj", "cpu:conj:requires_grad").
std::vector<std::string> complete_tensor_forms(const std::vector<std::string>& sources, std::string_view prefix);

}  // namespace dispatchctl
