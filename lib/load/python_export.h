// `-m python[:INTERPRETER]` and `dispatchctl export`: run the exporter that is
// embedded in the binary (tools/dispatchctl-export.py) with a user's Python,
// and cache its manifest per user ($XDG_CACHE_HOME/dispatchctl, else
// ~/.cache/dispatchctl; without the recorded dumps only verify reads) keyed
// by interpreter path, torch version, torch's install location and
// modification time, the native_functions.yaml torchgen ships beside it (its
// path and mtime: what the export's generated composites call is derived from
// it, load/export_generated_calls.h), and the --import modules.
// A cached run starts no interpreter: what identifies the torch is read from
// a locator the last probe left, which holds while the interpreter (path as
// run, resolved target, its mtime and size, PYTHONPATH/PYTHONHOME/
// PYTHONUSERBASE/PYTHONNOUSERSITE/PYTHONSAFEPATH/HOME) and the mtime and size
// of every path the probe watched (torch's package directory, __init__.py,
// version.py, lib/, _C*.so, and each sys.path entry up to the one torch is
// found in) are unchanged. With ?import= modules, the key also holds what
// decides what is imported: the current folder (the exporter puts it first
// on sys.path), PYTHONPATH, and each module's file and its mtime; a module's
// other files (a package's submodules) need `dispatchctl export` or removing
// the cache.
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace dispatchctl {

struct PythonExport {
  std::string interpreter = "python3";
  std::vector<std::string> imports;
  // Record every operator's _dispatch_dump_table and _dispatch_dump text for
  // `verify` (~30 MB; cached exports leave them out).
  bool recorded = true;
  // Also record what the hand-written composite kernels call, by running them
  // (docs/composite-calls.md; minutes, so only when asked; its own cache entry).
  bool composite_calls = false;
  // Told what is about to take a while (the library never prints).
  std::function<void(const std::string&)> progress;
};

// Writes the manifest of that Python's live registry to `output` (atomically).
// Throws InputError, before anything runs, when `output` cannot be written;
// and when the export fails, saying what ran, how it ended and its error line.
void run_python_export(const PythonExport& request, const std::string& output);

// A `-m python` export on disk: in the cache, or (the cache unusable: no
// writable home, XDG_CACHE_HOME naming a file, a full disk) in a temporary
// folder removed with this object.
class ExportedManifest {
 public:
  explicit ExportedManifest(std::string path, std::string temporary_folder = "");
  ~ExportedManifest();
  ExportedManifest(ExportedManifest&& other) noexcept;
  ExportedManifest(const ExportedManifest&) = delete;
  ExportedManifest& operator=(const ExportedManifest&) = delete;
  ExportedManifest& operator=(ExportedManifest&&) = delete;
  const std::string& path() const { return path_; }
  bool cached() const { return temporary_folder_.empty(); }

 private:
  std::string path_, temporary_folder_;
};

// An up-to-date cached export, made now if needed (with the recorded dumps
// when `request.recorded`: a cache entry of its own). When the cache cannot
// be used, one warning and an export into a temporary folder.
ExportedManifest cached_python_export(const PythonExport& request);

}  // namespace dispatchctl
