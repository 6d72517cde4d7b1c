// `dispatchctl registries` as text (one block per registry, wrapped at
// `width`) and as JSON (schemas/registries.schema.json).
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "inventory/builtin_inventory.h"

namespace dispatchctl {

std::string registries_text(const BuiltinInventory& inventory, size_t width);
nlohmann::ordered_json registries_json(const BuiltinInventory& inventory);

}  // namespace dispatchctl
