#include "load/python_export.h"

#include "load/export_cache.h"
#include "load/export_generated_calls.h"

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

fs::path write_exporter(const fs::path& dir) {
  const fs::path script = dir / "dispatchctl-export.py";
  const std::string_view text = exporter_script();
  // Rewritten only when this binary's exporter differs from the one there.
  std::error_code ec;
  if (fs::file_size(script, ec) != text.size() || read_input_file(script.string()) != text)
    write_file_atomically(script.string(), std::string(text));
  return script;
}

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
      // The YAML torchgen ships beside torch says what the export's generated
      // composites call (load/export_generated_calls.h): which one is part of the identity.
      "try: t = importlib.util.find_spec('torchgen')\n"
      "except Exception: t = None\n"
      "y = os.path.join(os.path.dirname(t.origin), 'packaged', 'ATen', 'native', 'native_functions.yaml') if t and t.origin else ''\n"
      "e = bool(y) and os.path.exists(y)\n"
      "print('module', 'torchgen-yaml', y if e else None, int(os.stat(y).st_mtime_ns) if e else '-')\n"
      "if e: w.append(y)\n"
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

// The export, run in `work` (the exporter script and the captured output go
// there), with what its generated composites call added from the YAML the
// exporter found beside torch (load/export_generated_calls.h).
ExportCallsAdded export_in(const PythonExport& request, const std::string& output, const fs::path& script,
                           const fs::path& work) {
  std::vector<std::string> argv = {request.interpreter, script.string(), "-o", output};
  for (const auto& m : request.imports) argv.insert(argv.end(), {"--import", m});
  if (!request.recorded) argv.push_back("--no-recorded");
  if (request.composite_calls) argv.push_back("--composite-calls");
  if (request.progress)
    request.progress("exporting the dispatcher registry of " + request.interpreter + "'s torch (takes a while; " +
                     (request.composite_calls ? "every composite kernel is run on sample inputs: minutes)…"
                                              : "every operator is dumped)…"));
  RunResult r = run(argv, work / ("run-" + std::to_string(getpid())));
  std::error_code ec;
  // 1: written, with warnings about what could not be read.
  if ((r.status != 0 && r.status != 1) || fs::file_size(output, ec) == 0 || ec)
    interpreter_failed(request.interpreter, request.interpreter + " <exporter> -o " + output, r);
  ExportCallsAdded added = add_generated_calls_to_export(output, torchgen_yaml_folder_from(r.err));
  log_verbose("python:{}: {} generated composite kernels given what they call", request.interpreter, added.calls);
  return added;
}

// The cached export for `request` in `dir`, made if missing. CacheUnusable
// when a file of the cache cannot be written.
std::string export_into_cache(const PythonExport& request, const fs::path& dir) {
  const fs::path script = in_cache([&] { return write_exporter(dir); });
  const std::string identity = torch_identity(
      request, dir, [&] { return probe_torch(request, dir / ("probe-" + std::to_string(getpid()))); });
  const fs::path cached = dir / cached_export_name(identity, request, exporter_script());
  std::error_code ec;
  if (fs::is_regular_file(cached, ec)) {
    log_verbose("-m python: cache hit {}", cached.string());
    return cached.string();
  }
  log_verbose("-m python: no cached export at {}; running the exporter", cached.string());
  // A load says what the export lacks (load_python); why, here.
  if (const ExportCallsAdded added = export_in(request, cached.string(), script, dir); !added.note.empty())
    log_verbose("python:{}: {}", request.interpreter, added.note);
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

namespace {

void note_calls(const PythonExport& request, const ExportCallsAdded& added) {
  if (!added.note.empty()) log_note("python:{}: {}", request.interpreter, added.note);
}

}  // namespace

void run_python_export(const PythonExport& request, const std::string& output) {
  require_writable_output(output);
  std::string why;
  if (const auto dir = usable_cache_dir(why)) {
    try {
      const fs::path script = in_cache([&] { return write_exporter(*dir); });
      return note_calls(request, export_in(request, output, script, *dir));
    } catch (const CacheUnusable& e) {
      why = e.what();
    }
  }
  log_verbose("export: the cache cannot be used ({}); running the exporter from a temporary folder", why);
  const std::string folder = make_temporary_folder(why);
  const ExportedManifest removed_when_done(folder, folder);
  note_calls(request, export_in(request, output, write_exporter(folder), folder));
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
  if (const ExportCallsAdded added = export_in(request, exported.path(), write_exporter(folder), folder);
      !added.note.empty())
    log_verbose("python:{}: {}", request.interpreter, added.note);
  return exported;
}

}  // namespace dispatchctl
