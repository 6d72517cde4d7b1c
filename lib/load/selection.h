// `show OP`, `explain OP`, `trace OP`: load the registry of `sources` keeping
// only the operators the patterns can match (a built-in registry then reads a
// few records of its pack), then select them (registry/op_select.h).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "load/load_registry.h"
#include "registry/registry.h"

namespace dispatchctl {

struct Selection {
  std::unique_ptr<Registry> registry;
  std::vector<const Operator*> operators;
};
Selection load_and_select(const LoadRequest& request, const std::vector<std::string>& patterns);

}  // namespace dispatchctl
