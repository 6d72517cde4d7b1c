// Every JSON document dispatchctl prints (not SARIF, which has its own)
// starts with "schema_version": the version of the document's JSON Schema in
// schemas/<command>.schema.json. A field that changes meaning or disappears
// bumps it; a new optional field does not.
#pragma once

#include <nlohmann/json.hpp>

namespace dispatchctl {

inline constexpr int k_json_schema_version = 1;

// BODY's fields after "schema_version", in their order.
inline nlohmann::ordered_json json_document(nlohmann::ordered_json body = nlohmann::ordered_json::object()) {
  nlohmann::ordered_json doc;
  doc["schema_version"] = k_json_schema_version;
  for (auto& [name, value] : body.items()) doc[name] = std::move(value);
  return doc;
}

}  // namespace dispatchctl
