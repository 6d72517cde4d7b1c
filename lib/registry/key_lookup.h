// Turning user-written key names into keys, with PyTorch-worded errors and
// a did-you-mean.
#pragma once

#include <string>
#include <string_view>

#include "keys/catalogue.h"

namespace dispatchctl {

// Any key a registration may name (runtime, building block, alias,
// functionality). `where` prefixes the error: "file.json: /operators/0/kernels/1/key".
Key require_key(const Catalogue& cat, std::string_view name, const std::string& where);
// A runtime key (a table row): what fallbacks and row queries take.
Key require_runtime_key(const Catalogue& cat, std::string_view name, const std::string& where);

}  // namespace dispatchctl
