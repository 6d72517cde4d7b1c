#include "builtin/builtin_catalogues.h"

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "builtin/builtin.h"
#include "keys/profile.h"

namespace dispatchctl {
namespace {

class BuiltinReleases final : public KnownReleases {
 public:
  BuiltinReleases() : built_(builtin_registries().size()) {}

  const Catalogue* find(std::string_view version) const override {
    const std::string wanted = major_minor(version);
    if (wanted.empty() || (version.size() > wanted.size() && version[wanted.size()] != '.' &&
                           version[wanted.size()] != '+'))
      return nullptr;
    const auto& registries = builtin_registries();
    // A predicted registry's profile is its base's: the real builds answer.
    for (size_t i = 0; i < registries.size(); ++i) {
      if (major_minor(registries[i].version) != wanted || !registries[i].predicted_from.empty()) continue;
      if (!built_[i]) built_[i] = std::make_unique<Catalogue>(registries[i].profile());
      return built_[i].get();
    }
    return nullptr;
  }

  std::vector<std::string> versions() const override {
    // builtin_registries() is newest first by release number (2.14 after 2.6,
    // which a sort of the text would not give): oldest first here.
    std::vector<std::string> versions;
    const auto& registries = builtin_registries();
    for (auto b = registries.rbegin(); b != registries.rend(); ++b)
      if (std::find(versions.begin(), versions.end(), major_minor(b->version)) == versions.end())
        versions.push_back(major_minor(b->version));
    return versions;
  }

 private:
  mutable std::vector<std::unique_ptr<Catalogue>> built_;
};

}  // namespace

const KnownReleases& builtin_releases() {
  static auto* releases = new BuiltinReleases;  // never destroyed: left to the process exit, as registries are
  return *releases;
}

const Catalogue* builtin_catalogue(std::string_view version) { return builtin_releases().find(version); }

}  // namespace dispatchctl
