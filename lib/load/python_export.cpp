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
#include <optional>
#include <sstream>
#include <stdexcept>
#include <utility>

#include "builtin/builtin.h"
#include "util/errors.h"
#include "util/file_io.h"

extern char** environ;

namespace dispatchctl {
namespace {

namespace fs = std::filesystem;

struct RunResult {
  int status = -1;  // the exit status, or -1 when killed by `signal`
  int signal = 0;
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
  result.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  result.signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
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

// The line of an interpreter's output that says what went wrong: the
// exporter's own error line, a traceback's last line, else the first line.
std::string error_line(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    if (line.find_first_not_of(" \t\r") != std::string::npos) lines.push_back(line);
  if (lines.empty()) return "";
  std::string chosen = lines.front();
  for (const auto& line : lines)
    if (line.rfind("Traceback (most recent call last)", 0) == 0) chosen = lines.back();
  for (const auto& line : lines)
    if (line.rfind("dispatchctl-export: error: ", 0) == 0) return line.substr(27);  // written for people
  // Another program's (ls quotes back the probe it was given): its start.
  constexpr size_t k_longest = 100;
  if (chosen.size() > k_longest) chosen = chosen.substr(0, k_longest) + "…";
  return chosen;
}

// What ran, how it ended and what it said, as one line.
[[noreturn]] void interpreter_failed(const std::string& interpreter, const std::string& what_ran,
                                     const RunResult& r) {
  const std::string ended = r.signal ? "was killed by signal " + std::to_string(r.signal)
                                     : "exited with status " + std::to_string(r.status);
  const std::string said = error_line(r.err.empty() ? r.out : r.err);
  throw InputError("python:" + interpreter + ": '" + what_ran + "' " + ended +
                   (said.empty() ? " and printed nothing" : ": " + said) + "; is " + interpreter +
                   " a Python with torch? e.g. -m python:/usr/bin/python3");
}

// The cache could not be used (a write into it failed): the export runs without it.
struct CacheUnusable : std::runtime_error {
  using std::runtime_error::runtime_error;
};

fs::path cache_dir() {
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg) return fs::path(xdg) / "dispatchctl";
  if (const char* home = std::getenv("HOME"); home && *home) return fs::path(home) / ".cache" / "dispatchctl";
  std::error_code ec;
  const fs::path temp = fs::temp_directory_path(ec);
  return (ec ? fs::path("/tmp") : temp) / ("dispatchctl-" + std::to_string(getuid()));
}

// The cache folder, made if needed; nullopt, with `why`, when it cannot be written.
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

// A fresh folder under TMPDIR (or /tmp) for an export that cannot be cached.
std::string make_temporary_folder(const std::string& why_not_cached) {
  std::error_code ec;
  const fs::path temp = fs::temp_directory_path(ec);  // TMPDIR, else /tmp
  std::string pattern = (temp / "dispatchctl-export-XXXXXX").string();
  if (ec || ::mkdtemp(pattern.data()) == nullptr)
    throw InputError("-m python: no folder to run the exporter in: the cache (" + why_not_cached + ") nor " +
                     (ec ? "TMPDIR (" + ec.message() : temp.string() + " (" + std::strerror(errno)) +
                     "); set XDG_CACHE_HOME or TMPDIR to a writable folder");
  return pattern;
}

// Runs `write` on a file of the cache: a failure means the cache is unusable.
template <typename Write>
auto in_cache(Write write) {
  try {
    return write();
  } catch (const InputError& e) {
    throw CacheUnusable(e.what());
  }
}

fs::path write_exporter(const fs::path& dir) {
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
      // ?import= modules: each one's file (found as the exporter will, the
      // current folder first) is part of the identity and watched.
      "sys.path.insert(0, os.getcwd())\n"
      "for m in sys.argv[1:]:\n"
      "    try: ms = importlib.util.find_spec(m.split('.')[0])\n"
      "    except Exception: ms = None\n"
      "    o = ms.origin if ms and ms.origin and os.path.exists(ms.origin) else None\n"
      "    print('module', m, o, int(os.stat(o).st_mtime_ns) if o else '-')\n"
      "    if o: w.append(o)\n"
      "for p in w: print('watch', p)\n";
  std::vector<std::string> argv = {request.interpreter, "-c", probe};
  argv.insert(argv.end(), request.imports.begin(), request.imports.end());
  RunResult r = run(argv, scratch);
  TorchProbe out;
  std::string modules;
  std::istringstream lines(r.out);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("watch ", 0) == 0) out.watched.push_back(line.substr(6));
    else if (line.rfind("module ", 0) == 0) modules += " " + line;
    else if (!line.empty()) out.identity = line;
  }
  if (r.status != 0 || out.identity.empty())
    interpreter_failed(request.interpreter, request.interpreter + " -c <probe for torch>", r);
  out.identity += modules;
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
  const TorchProbe probed = probe_torch(request, dir / ("probe-" + std::to_string(getpid())));
  if (!interpreter.empty()) {
    std::string text = interpreter + "\n" + probed.identity + "\n";
    for (const auto& path : probed.watched) text += stamp(path) + "\t" + path + "\n";
    in_cache([&] { write_file_atomically(locator.string(), text); });
  }
  return probed.identity;
}

// The export, run in `work` (the exporter script and the captured output go there).
void export_in(const PythonExport& request, const std::string& output, const fs::path& script, const fs::path& work) {
  std::vector<std::string> argv = {request.interpreter, script.string(), "-o", output};
  for (const auto& m : request.imports) argv.insert(argv.end(), {"--import", m});
  if (!request.recorded) argv.push_back("--no-recorded");
  if (request.progress)
    request.progress("exporting the dispatcher registry of " + request.interpreter +
                     "'s torch (takes a while; every operator is dumped)…");
  RunResult r = run(argv, work / ("run-" + std::to_string(getpid())));
  std::error_code ec;
  // 1: written, with warnings about what could not be read.
  if ((r.status != 0 && r.status != 1) || fs::file_size(output, ec) == 0 || ec)
    interpreter_failed(request.interpreter, request.interpreter + " <exporter> -o " + output, r);
}

// The cached export for `request` in `dir`, made if missing. CacheUnusable
// when a file of the cache cannot be written.
std::string export_into_cache(const PythonExport& request, const fs::path& dir) {
  const fs::path script = in_cache([&] { return write_exporter(dir); });
  std::string key = torch_identity(request, dir);
  for (const auto& m : request.imports) key += " import:" + m;
  if (request.recorded) key += " recorded";
  key += " exporter:" + std::to_string(std::hash<std::string_view>{}(exporter_script()));
  char name[32];
  std::snprintf(name, sizeof name, "export-%016zx.json", std::hash<std::string>{}(key));
  const fs::path cached = dir / name;
  std::error_code ec;
  if (fs::is_regular_file(cached, ec)) {
    log_verbose("-m python: cache hit {}", cached.string());
    return cached.string();
  }
  log_verbose("-m python: no cached export at {}; running the exporter", cached.string());
  export_in(request, cached.string(), script, dir);
  return cached.string();
}

}  // namespace

ExportedManifest::ExportedManifest(std::string path, std::string temporary_folder)
    : path_(std::move(path)), temporary_folder_(std::move(temporary_folder)) {}

ExportedManifest::ExportedManifest(ExportedManifest&& other) noexcept
    : path_(std::move(other.path_)), temporary_folder_(std::exchange(other.temporary_folder_, "")) {}

ExportedManifest::~ExportedManifest() {
  std::error_code ec;
  if (!temporary_folder_.empty()) fs::remove_all(temporary_folder_, ec);
}

void run_python_export(const PythonExport& request, const std::string& output) {
  require_writable_output(output);
  std::string why;
  if (const auto dir = usable_cache_dir(why)) {
    try {
      const fs::path script = in_cache([&] { return write_exporter(*dir); });
      return export_in(request, output, script, *dir);
    } catch (const CacheUnusable& e) {
      why = e.what();
    }
  }
  log_verbose("export: the cache cannot be used ({}); running the exporter from a temporary folder", why);
  const std::string folder = make_temporary_folder(why);
  const ExportedManifest removed_when_done(folder, folder);
  export_in(request, output, write_exporter(folder), folder);
}

ExportedManifest cached_python_export(const PythonExport& request) {
  std::string why;
  if (const auto dir = usable_cache_dir(why)) {
    try {
      return ExportedManifest(export_into_cache(request, *dir));
    } catch (const CacheUnusable& e) {
      why = e.what();
    }
  }
  log_warning("-m python: cannot use the cache ({}); exporting without it, on every run (set XDG_CACHE_HOME "
              "to a writable folder to keep exports)",
              why);
  const std::string folder = make_temporary_folder(why);
  ExportedManifest exported(folder + "/export.json", folder);  // the folder goes if the export fails
  export_in(request, exported.path(), write_exporter(folder), folder);
  return exported;
}

}  // namespace dispatchctl
