// The key catalogue of a release, for `dispatchctl keys`.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "keys/catalogue.h"
#include "util/wrap.h"

namespace dispatchctl {

nlohmann::ordered_json catalogue_json(const Catalogue& cat);
std::string catalogue_text(const Catalogue& cat, size_t width = k_default_width);
nlohmann::ordered_json alias_json(const Catalogue& cat, Key alias);
std::string alias_text(const Catalogue& cat, Key alias);

}  // namespace dispatchctl
