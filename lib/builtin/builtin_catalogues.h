// The key catalogues of the built-in releases, built on first use from their
// compiled-in profiles, only for the release a command needs.
#pragma once

#include <string_view>

#include "keys/catalogue.h"
#include "keys/known_releases.h"

namespace dispatchctl {

// What the loading layer passes to readers that meet a bare release number.
const KnownReleases& builtin_releases();
// builtin_releases().find(version): the built-in profile of the same MAJOR.MINOR
// ("1.13", "1.13.1", "2.14.0+x" …); nullptr when none is built in.
const Catalogue* builtin_catalogue(std::string_view version);

}  // namespace dispatchctl
