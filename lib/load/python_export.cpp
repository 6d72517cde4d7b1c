#include "load/python_export.h"

#include "util/log.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>

#include "builtin/builtin.h"
#include "util/errors.h"
#include "util/file_io.h"

extern char** environ;

namespace dispatchctl {
namespace {

namespace fs = std::filesystem;

struct RunResult {
  int status = -1;
  std::string out, err;
};

// Runs argv[0] (looked up in PATH) with stdout and stderr captured in files.
RunResult run(const std::vector<std::string>& argv, const fs::path& scratch) {
  const fs::path out = scratch.string() + ".out", err = scratch.string() + ".err";
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_addopen(&actions, 2, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  RunResult result;
  const int spawned = posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0) {
    std::error_code ec;
    fs::remove(out, ec), fs::remove(err, ec);
    throw InputError("python:" + argv[0] + ": cannot run it (" + std::string(std::strerror(spawned)) +
                     "); give an interpreter that exists, e.g. -m python:/usr/bin/python3");
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  result.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128;
  auto slurp = [](const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  };
  result.out = slurp(out), result.err = slurp(err);
  std::error_code ec;
  fs::remove(out, ec), fs::remove(err, ec);
  return result;
}

std::string last_line(const std::string& text) {
  std::string t = text;
  while (!t.empty() && t.back() == '\n') t.pop_back();
  const auto nl = t.rfind('\n');
  return nl == std::string::npos ? t : t.substr(nl + 1);
}

fs::path cache_dir() {
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg) return fs::path(xdg) / "dispatchctl";
  if (const char* home = std::getenv("HOME"); home && *home) return fs::path(home) / ".cache" / "dispatchctl";
  return fs::temp_directory_path() / ("dispatchctl-" + std::to_string(getuid()));
}

fs::path write_exporter(const fs::path& dir) {
  fs::create_directories(dir);
  const fs::path script = dir / "dispatchctl-export.py";
  const std::string_view text = exporter_script();
  // Rewritten only when this binary's exporter differs from the one there.
  std::error_code ec;
  if (fs::file_size(script, ec) != text.size() || read_input_file(script.string()) != text)
    write_file_atomically(script.string(), std::string(text));
  return script;
}

// What identifies the torch an interpreter imports (its version, where it is
// installed and when that changed), and the paths whose modification times
// tell that this may no longer hold. Starting the interpreter costs a second.
struct TorchProbe {
  std::string identity;
  std::vector<std::string> watched;
};

TorchProbe probe_torch(const PythonExport& request, const fs::path& scratch) {
  static constexpr const char* probe =
      "import glob, importlib.util, os, sys\n"
      "s = importlib.util.find_spec('torch')\n"
      "if s is None: sys.exit('no module named torch')\n"
      "d = os.path.dirname(s.origin)\n"
      // torch's own version.py, read rather than imported: importlib.metadata
      // would cost more than the rest of the probe (~80 ms).
      "try:\n"
      "    import re; v = re.search(r\"__version__\\b[^=]*= *['\\\"]([^'\\\"]*)\", open(os.path.join(d, 'version.py')).read())[1]\n"
      "except Exception:\n"
      "    v = '?'\n"
      "st = os.stat(os.path.join(d, '_C')) if os.path.exists(os.path.join(d, '_C')) else os.stat(d)\n"
      "print(sys.executable, v, d, int(os.stat(s.origin).st_mtime_ns), int(st.st_mtime_ns))\n"
      // Installing, upgrading or shadowing torch changes one of these mtimes:
      // its package, its extension and libraries, and every sys.path entry
      // searched before (and including) the one it was found in.
      "w = [d, s.origin, os.path.join(d, 'version.py'), os.path.join(d, 'lib')] + glob.glob(os.path.join(d, '_C*.so'))\n"
      "root = os.path.realpath(os.path.dirname(d))\n"
      "for p in sys.path:\n"
      "    if not p: continue\n"
      "    w.append(os.path.abspath(p))\n"
      "    if os.path.realpath(p) == root: break\n"
      "for p in w: print('watch', p)\n";
  RunResult r = run({request.interpreter, "-c", probe}, scratch);
  if (r.status != 0)
    throw InputError("python:" + request.interpreter + ": " + last_line(r.err.empty() ? r.out : r.err) +
                     "; give the Python that has your PyTorch, e.g. -m python:/usr/bin/python3");
  TorchProbe out;
  std::istringstream lines(r.out);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("watch ", 0) == 0) out.watched.push_back(line.substr(6));
    else if (!line.empty()) out.identity = line;
  }
  return out;
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

// The torch identity: from the locator the last probe of this interpreter
// left, while every path it watched keeps its stamp; else probed now (and
// the locator rewritten). The locator file: the interpreter's identity, the
// torch identity, then "STAMP\tPATH" per watched path.
std::string torch_identity(const PythonExport& request, const fs::path& dir) {
  const std::string interpreter = interpreter_identity(request.interpreter);
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
  const TorchProbe probed = probe_torch(request, dir / ("probe-" + std::to_string(getpid())));
  if (!interpreter.empty()) {
    std::string text = interpreter + "\n" + probed.identity + "\n";
    for (const auto& path : probed.watched) text += stamp(path) + "\t" + path + "\n";
    write_file_atomically(locator.string(), text);
  }
  return probed.identity;
}

}  // namespace

void run_python_export(const PythonExport& request, const std::string& output) {
  const fs::path dir = cache_dir();
  const fs::path script = write_exporter(dir);
  std::vector<std::string> argv = {request.interpreter, script.string(), "-o", output};
  for (const auto& m : request.imports) argv.insert(argv.end(), {"--import", m});
  if (!request.recorded) argv.push_back("--no-recorded");
  if (request.progress)
    request.progress("exporting the dispatcher registry of " + request.interpreter +
                     "'s torch (takes a while; every operator is dumped)…");
  RunResult r = run(argv, dir / ("run-" + std::to_string(getpid())));
  if (r.status == 2 || r.status > 2 || !fs::exists(output))
    throw InputError("python:" + request.interpreter + ": the exporter failed: " + last_line(r.err));
}

std::string cached_python_export(const PythonExport& request) {
  const fs::path dir = cache_dir();
  fs::create_directories(dir);
  std::string key = torch_identity(request, dir);
  for (const auto& m : request.imports) key += " import:" + m;
  key += " exporter:" + std::to_string(std::hash<std::string_view>{}(exporter_script()));
  char name[32];
  std::snprintf(name, sizeof name, "export-%016zx.json", std::hash<std::string>{}(key));
  const fs::path cached = dir / name;
  if (fs::exists(cached)) {
    log_verbose("-m python: cache hit {}", cached.string());
    return cached.string();
  }
  log_verbose("-m python: no cached export at {}; running the exporter", cached.string());
  // Without the recorded dumps: they are 90% of the file (and of the time to
  // load it on every cached run), and only `verify` of an export reads them.
  PythonExport lean = request;
  lean.recorded = false;
  run_python_export(lean, cached.string());
  return cached.string();
}

}  // namespace dispatchctl
