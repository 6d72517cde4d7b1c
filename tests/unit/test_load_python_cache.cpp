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
#include "util/errors.h"
#include "util/file_io.h"

using namespace dispatchctl;
namespace fs = std::filesystem;

namespace {

// An export request as -m python makes it (no recorded dumps).
PythonExport lean_export(const std::string& interpreter, std::vector<std::string> imports = {}) {
  PythonExport request;
  request.interpreter = interpreter;
  request.imports = std::move(imports);
  request.recorded = false;
  return request;
}

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
                          // The exporter comes on stdin; the manifest goes to stdout.
                          << "cat > /dev/null\n"
                          << "printf '{\"dispatchctl_manifest\": 1, \"torch_version\": \"2.14.1\", \"operators\": []}'\n";
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
  std::string export_now() { return cached_python_export(lean_export(python.string())).path(); }
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

namespace {

// Sets an environment variable for the scope of a test.
struct ScopedEnv {
  std::string name, saved;
  bool had = false;
  ScopedEnv(const char* n, const std::string& value) : name(n) {
    if (const char* v = std::getenv(n)) had = true, saved = v;
    ::setenv(n, value.c_str(), 1);
  }
  ~ScopedEnv() {
    if (had) ::setenv(name.c_str(), saved.c_str(), 1);
    else ::unsetenv(name.c_str());
  }
};

}  // namespace

TEST_CASE("python cache: an unusable cache runs the export uncached, in a folder removed afterwards") {
  StandIn s;
  const fs::path not_a_folder = s.dir / "cache-is-a-file";
  std::ofstream(not_a_folder) << "x";
  // A cache path under a file, /dev/full (a full device that is no folder),
  // and a home that cannot be made (even by root: /proc takes no folders).
  for (const auto& setting : std::vector<std::pair<const char*, std::string>>{
           {"XDG_CACHE_HOME", not_a_folder.string()},
           {"XDG_CACHE_HOME", "/dev/full"},
           {"XDG_CACHE_HOME", ""}}) {
    // Not a structured binding: clang 14 (the sanitizer build) cannot capture one in CAPTURE's lambda.
    const char* name = setting.first;
    const std::string& value = setting.second;
    CAPTURE(value);
    const ScopedEnv cache(name, value);
    const ScopedEnv home("HOME", "/proc/dispatchctl-no-home");
    std::string path;
    {
      const ExportedManifest exported = cached_python_export(lean_export(s.python.string()));
      CHECK_FALSE(exported.cached());
      path = exported.path();
      CHECK(read_input_file(path).find("\"torch_version\": \"2.14.1\"") != std::string::npos);
    }
    CHECK_FALSE(fs::exists(fs::path(path).parent_path()));  // the temporary folder is gone
    CHECK(s.started() == std::vector<std::string>{"export"});  // no probe: nothing to key
  }
  // No cache and no temporary folder either: one error, no abort.
  const ScopedEnv cache("XDG_CACHE_HOME", "/dev/full");
  const ScopedEnv temp("TMPDIR", "/dev/full");
  CHECK_THROWS_WITH_AS(cached_python_export(lean_export(s.python.string())),
                       doctest::Contains("set XDG_CACHE_HOME or TMPDIR to a writable folder"), InputError);
}

TEST_CASE("python cache: ?import= modules are keyed by the folder they are found in and their file") {
  // A Python whose probe is real (/usr/bin/python3, finding a stand-in torch
  // package) and whose "export" defines one operator named by myext.NAME, as
  // imported from the current folder the way the exporter imports it.
  StandIn s;
  std::ofstream(s.torch / "__init__.py") << "";
  std::ofstream(s.python) << "#!/bin/sh\n"
                          << "export PYTHONPATH='" << s.torch.parent_path().string() << "'\n"
                          << "if [ \"$1\" = -c ]; then exec /usr/bin/python3 \"$@\"; fi\n"
                          << "echo export >> '" << s.log.string() << "'\n"
                          << "name=$(/usr/bin/python3 -c 'import os, sys; sys.path.insert(0, os.getcwd()); "
                             "import myext; print(myext.NAME)')\n"
                          << "cat > /dev/null\n"
                          << "printf '{\"dispatchctl_manifest\": 1, \"torch_version\": \"2.14.1\", "
                             "\"operators\": [{\"name\": \"%s\"}]}' \"$name\"\n";
  fs::permissions(s.python, fs::perms::owner_all);
  const fs::path a = s.dir / "a", b = s.dir / "b";
  fs::create_directories(a), fs::create_directories(b);
  std::ofstream(a / "myext.py") << "NAME = 'extaa::foo'\n";
  std::ofstream(b / "myext.py") << "NAME = 'extbb::bar'\n";
  const fs::path cwd = fs::current_path();
  auto export_in = [&](const fs::path& folder) {
    fs::current_path(folder);
    const std::string path =
        cached_python_export(lean_export(s.python.string(), {"myext"})).path();
    fs::current_path(cwd);
    return read_input_file(path);
  };
  CHECK(export_in(a).find("extaa::foo") != std::string::npos);
  CHECK(export_in(b).find("extbb::bar") != std::string::npos);  // not a/'s cached export
  CHECK(export_in(a).find("extaa::foo") != std::string::npos);  // a/'s own entry, still cached
  std::ofstream(a / "myext.py") << "NAME = 'extaa::changed'\n";
  fs::last_write_time(a / "myext.py", fs::last_write_time(a / "myext.py") + std::chrono::seconds(5));
  CHECK(export_in(a).find("extaa::changed") != std::string::npos);  // the module's file changed
  s.started();
  CHECK(export_in(a).find("extaa::changed") != std::string::npos);
  CHECK(s.started().empty());  // and is cached again: no interpreter started
}
