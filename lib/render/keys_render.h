// The key catalogue of a release, for `dispatchctl keys`.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "keys/catalogue.h"
#include "util/wrap.h"

namespace dispatchctl {

// `torch_version` is the full release ("2.14.1", as show says), the catalogue
// knowing only its MAJOR.MINOR.
nlohmann::ordered_json catalogue_json(const Catalogue& cat, std::string_view torch_version);
std::string catalogue_text(const Catalogue& cat, size_t width = k_default_width);
nlohmann::ordered_json alias_json(const Catalogue& cat, Key alias);
std::string alias_text(const Catalogue& cat, Key alias);

}  // namespace dispatchctl
