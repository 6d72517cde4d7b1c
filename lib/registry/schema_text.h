// The text of a parsed schema's types as PyTorch writes them (the spelling of
// native_functions.yaml and of c10's schema printer): "Tensor?[]", "int[2]?",
// "Tensor(a!)[]". The inverse of registry/schema_parser.h for types;
// torchgen/schema.h prints whole schemas on top of it.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "registry/schema_parser.h"

namespace dispatchctl {

// How a printer spells a base type's name ("DeviceIndex" -> "int"); empty: as parsed.
using BaseNameText = std::function<std::string(const std::string&)>;

// A type. `size` is an argument's size hint, which belongs to its outermost
// list ("int[2]?"); `alias` is placed after the base type ("Tensor(a!)[]").
std::string type_text(const SchemaType& type, std::optional<int> size = std::nullopt, const std::string& alias = "",
                      const BaseNameText& base_name = {});
// An argument's (or return's) type without its alias: "int[1]?".
std::string type_text(const SchemaArgument& a);
// With its alias: "Tensor(a!)[]".
std::string annotated_type_text(const SchemaArgument& a, const BaseNameText& base_name = {});

}  // namespace dispatchctl
