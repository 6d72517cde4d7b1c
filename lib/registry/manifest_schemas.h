// Every "schema" of a manifest parsed as PyTorch parses it, and named as its
// entry's "name" says, before anything is registered.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace dispatchctl {

// InputError "FILE:LINE:COL: /operators/N/schema: PyTorch's refusal; fix"
// (LINE:COL point at the offending character inside the JSON string).
void check_manifest_schemas(const nlohmann::ordered_json& doc, std::string_view text, const std::string& source,
                            std::string_view torch_version);

}  // namespace dispatchctl
