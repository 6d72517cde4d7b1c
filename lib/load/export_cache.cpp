#include "load/export_cache.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "util/file_io.h"

namespace dispatchctl {
namespace {

namespace fs = std::filesystem;

fs::path cache_dir() {
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg) return fs::path(xdg) / "dispatchctl";
  if (const char* home = std::getenv("HOME"); home && *home) return fs::path(home) / ".cache" / "dispatchctl";
  std::error_code ec;
  const fs::path temp = fs::temp_directory_path(ec);
  return (ec ? fs::path("/tmp") : temp) / ("dispatchctl-" + std::to_string(getuid()));
}

// "MTIME_NS SIZE" of a path, "-" when it does not exist.
std::string stamp(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return "-";
  return std::to_string(st.st_mtim.tv_sec * 1000000000LL + st.st_mtim.tv_nsec) + " " + std::to_string(st.st_size);
}

// The interpreter without starting it: the path it is run by (PATH looked up
// as posix_spawnp does; a venv's python is told apart by it), what that
// resolves to and its stamp, and the environment that changes sys.path.
// Empty when it cannot be found (the probe then says why).
std::string interpreter_identity(const std::string& interpreter) {
  std::string path;
  if (interpreter.find('/') != std::string::npos) {
    path = interpreter;
  } else if (const char* env_path = std::getenv("PATH")) {
    std::istringstream dirs(env_path);
    for (std::string dir; path.empty() && std::getline(dirs, dir, ':');) {
      const std::string candidate = (dir.empty() ? "." : dir) + "/" + interpreter;
      if (::access(candidate.c_str(), X_OK) == 0) path = candidate;
    }
  }
  std::error_code ec;
  const fs::path absolute = fs::absolute(path, ec);
  const fs::path target = fs::canonical(absolute, ec);
  if (path.empty() || ec) return "";
  std::string identity = absolute.string() + " -> " + target.string() + " " + stamp(target.string());
  for (const char* name : {"PYTHONPATH", "PYTHONHOME", "PYTHONUSERBASE", "PYTHONNOUSERSITE", "PYTHONSAFEPATH", "HOME"})
    if (const char* value = std::getenv(name)) identity += std::string(" ") + name + "=" + value;
  return identity;
}

}  // namespace

std::optional<fs::path> usable_cache_dir(std::string& why) {
  const fs::path dir = cache_dir();
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (!ec && !fs::is_directory(dir, ec)) ec = std::make_error_code(std::errc::not_a_directory);
  if (!ec && ::access(dir.c_str(), W_OK | X_OK) != 0) ec = std::error_code(errno, std::generic_category());
  if (!ec) return dir;
  why = dir.string() + ": " + ec.message();
  return std::nullopt;
}

// The locator file: the interpreter's identity, the torch identity, then
// "STAMP\tPATH" per watched path.
std::string torch_identity(const PythonExport& request, const fs::path& dir, const std::function<TorchProbe()>& probe) {
  std::string interpreter = interpreter_identity(request.interpreter);
  if (!interpreter.empty() && !request.imports.empty()) {
    std::error_code ec;
    interpreter += " cwd=" + fs::current_path(ec).string();
    for (const auto& m : request.imports) interpreter += " import=" + m;
  }
  char name[40];
  std::snprintf(name, sizeof name, "locator-%016zx.txt", std::hash<std::string>{}(interpreter));
  const fs::path locator = dir / name;
  if (!interpreter.empty()) {
    std::ifstream in(locator);
    std::string seen_interpreter, identity;
    bool fresh = std::getline(in, seen_interpreter) && seen_interpreter == interpreter &&
                 std::getline(in, identity) && !identity.empty();
    for (std::string line; fresh && std::getline(in, line);) {
      const auto tab = line.find('\t');
      fresh = tab != std::string::npos && stamp(line.substr(tab + 1)) == line.substr(0, tab);
    }
    if (fresh) return identity;
  }
  const TorchProbe probed = probe();
  if (!interpreter.empty()) {
    std::string text = interpreter + "\n" + probed.identity + "\n";
    for (const auto& path : probed.watched) text += stamp(path) + "\t" + path + "\n";
    in_cache([&] { write_file_atomically(locator.string(), text); });
  }
  return probed.identity;
}

std::string cached_export_name(const std::string& torch_identity, const PythonExport& request,
                               std::string_view exporter_script) {
  std::string key = torch_identity;
  for (const auto& m : request.imports) key += " import:" + m;
  if (request.recorded) key += " recorded";
  if (request.composite_calls) key += " composite_calls";
  key += " exporter:" + std::to_string(std::hash<std::string_view>{}(exporter_script));
  char name[32];
  std::snprintf(name, sizeof name, "export-%016zx.json", std::hash<std::string>{}(key));
  return name;
}

}  // namespace dispatchctl
