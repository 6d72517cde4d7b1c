// `-m python[:INTERPRETER]` and `dispatchctl export`: run the exporter that is
// embedded in the binary (tools/dispatchctl-export.py) with a user's Python,
// and cache its manifest per user ($XDG_CACHE_HOME/dispatchctl, else
// ~/.cache/dispatchctl; without the recorded dumps only verify reads) keyed
// by interpreter path, torch version, torch's install location and
// modification time, and the --import modules.
// A cached run starts no interpreter: what identifies the torch is read from
// a locator the last probe left, which holds while the interpreter (path as
// run, resolved target, its mtime and size, PYTHONPATH/PYTHONHOME/
// PYTHONUSERBASE/PYTHONNOUSERSITE/PYTHONSAFEPATH/HOME) and the mtime and size
// of every path the probe watched (torch's package directory, __init__.py,
// version.py, lib/, _C*.so, and each sys.path entry up to the one torch is
// found in) are unchanged. Anything else (an --import module's own code)
// needs `dispatchctl export` or removing the cache.
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
  // Told what is about to take a while (the library never prints).
  std::function<void(const std::string&)> progress;
};

// Writes the manifest of that Python's live registry to `output` (atomically).
// Throws InputError with the exporter's own error line when it fails.
void run_python_export(const PythonExport& request, const std::string& output);
// The path of an up-to-date cached export, made now if needed.
std::string cached_python_export(const PythonExport& request);

}  // namespace dispatchctl
