// Rules that compare the registry before a change with the one after it
// (`check --base`): see lint_changes.cpp.
#pragma once

#include <functional>
#include <vector>

#include "check/finding.h"
#include "registry/registry.h"

namespace dispatchctl {

void lint_changes(const Registry& before, const Registry& after, const std::function<bool(const Operator&)>& in_scope,
                  std::vector<Finding>& out);

}  // namespace dispatchctl
