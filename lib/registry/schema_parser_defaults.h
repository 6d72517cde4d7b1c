// The base types of operator schemas (schema_type_parser.cpp's type_map) and
// the default values each takes (function_schema_parser.cpp's
// parseDefaultValue): what PyTorch refuses is refused, with its wording.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "registry/schema_parser.h"
#include "registry/schema_parser_cursor.h"

namespace dispatchctl::schema_parsing {

bool is_base_type(std::string_view name);
std::vector<std::string_view> base_type_names();

// Reads the default value of an argument of `type` at the cursor (`size`: the
// 2 of int[2], which lets a single value stand for the list). Throws SchemaError.
void parse_default_value(TokenCursor& cursor, const SchemaType& type, std::optional<int> size);

}  // namespace dispatchctl::schema_parsing
