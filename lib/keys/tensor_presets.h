// The words of `trace --tensor PRESET[:MODIFIER...]` a release has: trace
// reads them, and so does shell completion (load/completion_names).
#pragma once

#include <string>
#include <vector>

#include "keys/catalogue.h"

namespace dispatchctl {

// The release's presets (cpu, meta, cuda, …), in profile order.
std::vector<std::string> tensor_preset_names(const Catalogue& cat);
// Its modifiers: those adding a key (conj, neg, zerotensor), then inference
// (removes the inference-tensor keys) and requires_grad (changes no key set).
std::vector<std::string> tensor_modifier_names(const Catalogue& cat);

}  // namespace dispatchctl
