#include "registry/key_lookup.h"

#include "util/errors.h"
#include "util/suggest.h"

namespace dispatchctl {

namespace {

// "2.14" for a key that only other known releases have; "" otherwise.
std::string releases_having(const Catalogue& cat, std::string_view name, const KnownReleases& releases) {
  std::vector<std::string> having;
  for (const std::string& version : releases.versions())
    if (const Catalogue* other = releases.find(version); other && other != &cat && other->find(name))
      having.push_back(std::string(other->version()));
  std::string text;
  for (size_t i = 0; i < having.size(); ++i) text += (i ? ", " : "") + having[i];
  return text;
}

}  // namespace

namespace {

// What is wrong with an unknown key name, with its fix.
std::string unknown_key(const Catalogue& cat, std::string_view name, const KnownReleases* releases) {
  std::string message = "'" + std::string(name) + "' is not a dispatch key of PyTorch " + std::string(cat.version());
  const std::string elsewhere = releases ? releases_having(cat, name, *releases) : "";
  if (!elsewhere.empty()) {
    message += ": it exists in PyTorch " + elsewhere + ", not in " + std::string(cat.version()) +
               " (run 'dispatchctl keys --torch-version " + std::string(cat.version()) + "' for its keys)";
  } else if (auto match = closest_match(name, cat.key_names())) {
    message += "; did you mean '" + *match + "'?";
  } else {
    message += "; run 'dispatchctl keys --torch-version " + std::string(cat.version()) +
               "' for the list";
  }
  return message;
}

}  // namespace

Key require_key(const Catalogue& cat, std::string_view name, const std::string& where,
                const KnownReleases* releases) {
  if (auto k = cat.find(name)) return *k;
  throw InputError(where + ": " + unknown_key(cat, name, releases));
}

Key require_key(const Catalogue& cat, std::string_view name, const InputLocation& where,
                const KnownReleases* releases) {
  if (auto k = cat.find(name)) return *k;
  throw InputError(where, unknown_key(cat, name, releases));
}

Key require_runtime_key(const Catalogue& cat, std::string_view name, const std::string& where,
                        const KnownReleases* releases) {
  const Key k = require_key(cat, name, where, releases);
  if (!cat.is_runtime(k))
    throw InputError(where + ": '" + std::string(name) +
                     "' is not a runtime key (it is an alias or a per-backend building block); "
                     "name a table row such as 'CPU' or 'AutogradCPU'");
  return k;
}

}  // namespace dispatchctl
