// Turning user-written key names into keys, with PyTorch-worded errors and
// a did-you-mean.
#pragma once

#include <string>
#include <string_view>

#include "keys/catalogue.h"
#include "keys/known_releases.h"
#include "util/errors.h"

namespace dispatchctl {

// Any key a registration may name (runtime, building block, alias,
// functionality). `where` prefixes the error: "file.json: /operators/0/kernels/1/key".
// With `releases` (the app passes the built-in ones), a key of another
// release says so ("exists in PyTorch 2.14, not in 1.13") instead of
// suggesting a neighbour of this release's.
Key require_key(const Catalogue& cat, std::string_view name, const std::string& where,
                const KnownReleases* releases = nullptr);
// The same for a name read from a file: the error keeps its place apart.
Key require_key(const Catalogue& cat, std::string_view name, const InputLocation& where,
                const KnownReleases* releases = nullptr);
// A runtime key (a table row): what fallbacks and row queries take.
Key require_runtime_key(const Catalogue& cat, std::string_view name, const std::string& where,
                        const KnownReleases* releases = nullptr);

}  // namespace dispatchctl
