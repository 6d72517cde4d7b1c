// Shared by refusals.cpp and refusals_groups.cpp (not part of the interface).
#pragma once

#include <string_view>
#include <vector>

#include "torchgen/model.h"
#include "torchgen/release_rules.h"

namespace dispatchctl::torchgen {

std::string_view kind_fix(std::string_view id);
Refusal make_refusal(const NativeFunction& f, std::string_view id, std::string reason);

// NativeFunctionsGroup / lone out= / structured without a functional variant.
void check_groups(const TorchgenModel& model, const ReleaseRules& rules, std::vector<Refusal>& out);
// NativeFunctionsViewGroup: view operators and their _copy variants.
void check_views(const TorchgenModel& model, const ReleaseRules& rules, std::vector<Refusal>& out);
// tools/autograd: derivatives.yaml against the operators.
void check_derivatives(const TorchgenModel& model, const ReleaseRules& rules, std::vector<Refusal>& out);
// Asserts on pass-through fields and on how formulas name gradients (refusals_more.cpp).
void check_more(const TorchgenModel& model, std::vector<Refusal>& out);

}  // namespace dispatchctl::torchgen
