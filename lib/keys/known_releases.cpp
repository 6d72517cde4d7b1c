#include "keys/known_releases.h"

#include "util/join.h"

namespace dispatchctl {

std::string KnownReleases::versions_text() const {
  return join(versions(), ", ", [](const auto& v) { return v + ".x"; });
}

}  // namespace dispatchctl
