// The default release is the newest folder of lib/builtin/data, read here from
// the folders themselves (not from the list the build generated from them), so
// adding a release folder changes the default with no code change.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "builtin/builtin.h"
#include "load/load_registry.h"
#include "torchgen/apply.h"
#include "torchgen_support.h"

using namespace dispatchctl;

namespace {

// "2.14.1" -> {2, 14, 1}: releases compare by number, not by text ("2.9" < "2.14").
std::vector<int> release_numbers(const std::string& version) {
  std::vector<int> numbers;
  for (size_t at = 0; at < version.size();) {
    size_t used = 0;
    numbers.push_back(std::stoi(version.substr(at), &used));
    at += used + 1;
  }
  return numbers;
}

std::vector<std::string> data_folder_releases_newest_first() {
  std::vector<std::string> versions;
  for (const auto& entry : std::filesystem::directory_iterator(std::string(DISPATCHCTL_SOURCE_DIR) + "/lib/builtin/data")) {
    const std::string name = entry.path().filename().string();
    if (entry.is_directory() && name.rfind("torch-", 0) == 0) versions.push_back(name.substr(6));
  }
  std::sort(versions.begin(), versions.end(),
            [](const std::string& a, const std::string& b) { return release_numbers(a) > release_numbers(b); });
  return versions;
}

}  // namespace

TEST_CASE("builtin: the list is every data folder, newest first, and the default is its first entry") {
  const std::vector<std::string> folders = data_folder_releases_newest_first();
  REQUIRE(folders.size() >= 2);
  std::vector<std::string> built_in;
  for (const BuiltinRegistry& b : builtin_registries()) built_in.emplace_back(b.version);
  CHECK(built_in == folders);
  CHECK(k_default_release == folders.front());
  CHECK(k_default_registry == "builtin:" + folders.front());
  CHECK(find_builtin(k_default_registry) == &builtin_registries().front());
  // torchgen's rules for an empty registry are the default release's.
  CHECK(load_registry({"torchgen:" + test::torchgen_dir(folders.front())})->torch_version() == folders.front());
}

TEST_CASE("builtin: releases order by number, not by text") {
  CHECK(release_numbers("2.14.1") > release_numbers("2.9.0"));
  CHECK(release_numbers("10.0.0") > release_numbers("9.12.3"));
}
