// The releases a caller can give a catalogue for when only a release number
// is in hand (a manifest with a torch_version and no release_profile). keys/
// knows no release itself: the loading layer passes the built-in profiles
// (builtin/builtin_catalogues.h).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace dispatchctl {

class Catalogue;

class KnownReleases {
 public:
  virtual ~KnownReleases() = default;
  // The catalogue of the same MAJOR.MINOR ("1.13", "1.13.1", "2.14.0+cpu" …);
  // nullptr when none is known.
  virtual const Catalogue* find(std::string_view version) const = 0;
  // Their MAJOR.MINOR, oldest release first.
  virtual std::vector<std::string> versions() const = 0;
  // "1.13.x, 2.14.x": for error messages.
  std::string versions_text() const;
};

}  // namespace dispatchctl
