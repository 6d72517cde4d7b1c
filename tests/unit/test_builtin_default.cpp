// The built-in registries are the folders of lib/builtin/data, read here from
// the folders themselves (not from the list the build generated from them):
// adding a folder adds a registry, and the default is the newest real CPU-only
// build, chosen from the data (profile.json's "build"), so a CUDA or predicted
// registry of a newer release does not become the default.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "builtin/builtin.h"
#include "load/load_registry.h"
#include "torchgen/apply.h"
#include "torchgen_support.h"

using namespace dispatchctl;

namespace {

// "2.14.1" -> {2, 14, 1}: releases compare by number, not by text ("2.9" < "2.14").
std::vector<int> release_numbers(const std::string& version) {
  std::vector<int> numbers;
  const std::string release = version.substr(0, version.find('+'));
  for (size_t at = 0; at < release.size();) {
    size_t used = 0;
    numbers.push_back(std::stoi(release.substr(at), &used));
    at += used + 1;
  }
  return numbers;
}

struct Folder {
  std::string name;  // "2.6.0+cuda"
  bool predicted = false;
  std::string build;  // profile.json's, "" for a predicted one
};

std::vector<Folder> data_folders() {
  std::vector<Folder> folders;
  const std::filesystem::path data = std::string(DISPATCHCTL_SOURCE_DIR) + "/lib/builtin/data";
  for (const auto& entry : std::filesystem::directory_iterator(data)) {
    const std::string name = entry.path().filename().string();
    if (!entry.is_directory() || name.rfind("torch-", 0) != 0) continue;
    Folder f{name.substr(6), std::filesystem::exists(entry.path() / "predict.json"), ""};
    if (!f.predicted) {
      std::ifstream in(entry.path() / "profile.json");
      std::stringstream text;
      text << in.rdbuf();
      f.build = nlohmann::json::parse(text.str()).value("build", "");
    }
    folders.push_back(f);
  }
  return folders;
}

}  // namespace

TEST_CASE("builtin: the list is every data folder, newest release first; the default is the newest real CPU-only") {
  const std::vector<Folder> folders = data_folders();
  REQUIRE(folders.size() >= 2);
  std::vector<std::string> built_in, in_folders;
  for (const BuiltinRegistry& b : builtin_registries()) built_in.emplace_back(b.version);
  for (const Folder& f : folders) in_folders.push_back(f.name);
  CHECK(std::is_permutation(built_in.begin(), built_in.end(), in_folders.begin(), in_folders.end()));
  CHECK(std::is_sorted(built_in.begin(), built_in.end(), [](const std::string& a, const std::string& b) {
    return release_numbers(a) > release_numbers(b);
  }));
  std::string newest_real_cpu;
  for (const Folder& f : folders)
    if (!f.predicted && f.build == "CPU-only" &&
        (newest_real_cpu.empty() || release_numbers(f.name) > release_numbers(newest_real_cpu)))
      newest_real_cpu = f.name;
  CHECK(k_default_release == newest_real_cpu);
  CHECK(k_default_registry == "builtin:" + newest_real_cpu);
  CHECK(find_builtin(k_default_registry) == &builtin_registries().front());
  // torchgen's rules for an empty registry are the default release's.
  CHECK(load_registry({"torchgen:" + test::torchgen_dir(newest_real_cpu)})->torch_version() == newest_real_cpu);
  for (const Folder& f : folders) {
    CAPTURE(f.name);
    const BuiltinRegistry* b = find_builtin("builtin:" + f.name);
    REQUIRE(b);
    CHECK(b->predicted_from.empty() == !f.predicted);
    if (!f.predicted) CHECK(b->build == f.build);
  }
}

TEST_CASE("builtin: a name without a build names a build without one; MAJOR.MINOR names the newest patch") {
  for (const BuiltinRegistry& b : builtin_registries()) {
    CAPTURE(b.version);
    const std::string build(b.version.substr(b.release.size()));  // "" or "+cuda"
    const std::string release(b.release);
    const std::string major_minor = release.substr(0, release.rfind('.'));
    const BuiltinRegistry* by_minor = find_builtin("builtin:" + major_minor + build);
    REQUIRE(by_minor);
    CHECK(by_minor->version.substr(by_minor->release.size()) == build);
  }
  CHECK(find_builtin("builtin:2.6.0") == nullptr);  // only its CUDA build is built in
  REQUIRE(find_builtin("builtin:2.6+cuda"));
  CHECK(find_builtin("builtin:2.6+cuda")->version == "2.6.0+cuda");
  CHECK(find_builtin("builtin:2.14")->build == "CPU-only");
}

TEST_CASE("builtin: releases order by number, not by text") {
  CHECK(release_numbers("2.14.1") > release_numbers("2.9.0"));
  CHECK(release_numbers("10.0.0") > release_numbers("9.12.3"));
  CHECK(release_numbers("2.14.1+cuda") == release_numbers("2.14.1"));
}
