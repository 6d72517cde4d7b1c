// `-m python`'s cache (python_export.h): a cached run starts no interpreter,
// and the invalidation rule holds: a watched path that changes makes it probe
// again, a torch that is another one makes it export again. The interpreter
// is a stand-in shell script that logs every time it is started.
#include <doctest/doctest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "load/python_export.h"

using namespace dispatchctl;
namespace fs = std::filesystem;

namespace {

struct StandIn {
  fs::path dir = fs::temp_directory_path() / ("python-cache-test-" + std::to_string(::getpid()));
  fs::path python = dir / "python";
  fs::path log = dir / "started.log";
  fs::path torch = dir / "site" / "torch";
  fs::path version = dir / "version";
  std::string saved_cache;

  StandIn() {
    fs::create_directories(torch);
    std::ofstream(version) << "9.9";
    std::ofstream(python) << "#!/bin/sh\n"
                          << "echo \"$1\" >> '" << log.string() << "'\n"
                          << "if [ \"$1\" = -c ]; then\n"
                          << "  echo \"standin $(cat '" << version.string() << "') " << torch.string() << " 1 2\"\n"
                          << "  echo 'watch " << torch.string() << "'\n"
                          << "  exit 0\nfi\n"
                          << "printf '{\"dispatchctl_manifest\": 1, \"torch_version\": \"2.14.1\", \"operators\": []}' > \"$3\"\n";
    fs::permissions(python, fs::perms::owner_all);
    if (const char* cache = std::getenv("XDG_CACHE_HOME")) saved_cache = cache;
    ::setenv("XDG_CACHE_HOME", (dir / "cache").c_str(), 1);
  }
  ~StandIn() {
    if (saved_cache.empty()) ::unsetenv("XDG_CACHE_HOME");
    else ::setenv("XDG_CACHE_HOME", saved_cache.c_str(), 1);
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
  // What the interpreter was started for since the last call: "-c" (the
  // probe) or the exporter script's path.
  std::vector<std::string> started() {
    std::vector<std::string> out;
    std::ifstream in(log);
    for (std::string line; std::getline(in, line);) out.push_back(line.rfind("-c", 0) == 0 ? "probe" : "export");
    fs::remove(log);
    return out;
  }
  std::string export_now() { return cached_python_export({.interpreter = python.string()}); }
};

}  // namespace

TEST_CASE("python cache: a cached run starts no interpreter; changed paths probe, another torch exports") {
  StandIn s;
  const std::string first = s.export_now();
  CHECK(s.started() == std::vector<std::string>{"probe", "export"});
  CHECK(fs::exists(first));

  CHECK(s.export_now() == first);
  CHECK(s.started().empty());  // the locator held: no interpreter started

  // torch's directory changed (a reinstall): probed again, same torch: same export.
  const auto later = fs::last_write_time(s.torch) + std::chrono::seconds(5);
  fs::last_write_time(s.torch, later);
  CHECK(s.export_now() == first);
  CHECK(s.started() == std::vector<std::string>{"probe"});
  CHECK(s.export_now() == first);
  CHECK(s.started().empty());

  // Another torch version behind a changed directory: a new export.
  std::ofstream(s.version) << "10.0";
  fs::last_write_time(s.torch, later + std::chrono::seconds(5));
  const std::string second = s.export_now();
  CHECK(second != first);
  CHECK(s.started() == std::vector<std::string>{"probe", "export"});

  // The interpreter itself replaced (its mtime): probed again.
  fs::last_write_time(s.python, fs::last_write_time(s.python) + std::chrono::seconds(5));
  CHECK(s.export_now() == second);
  CHECK(s.started() == std::vector<std::string>{"probe"});
}
