// The -m python export cache (load/python_export.h says what it holds):
// where it is, whether it can be written, and the key of an export: the
// torch an interpreter imports, identified without starting it while the
// locator the last probe left still holds.
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "load/python_export.h"
#include "util/errors.h"

namespace dispatchctl {

// The cache could not be used (a write into it failed): the export runs without it.
struct CacheUnusable : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The cache folder, made if needed; nullopt, with `why`, when it cannot be written.
std::optional<std::filesystem::path> usable_cache_dir(std::string& why);

// Runs `write` on a file of the cache: a failure means the cache is unusable.
template <typename Write>
auto in_cache(Write write) {
  try {
    return write();
  } catch (const InputError& e) {
    throw CacheUnusable(e.what());
  }
}

// What identifies the torch an interpreter imports (its version, where it is
// installed and when that changed), and the paths whose modification times
// tell that this may no longer hold. Starting the interpreter costs a second.
struct TorchProbe {
  std::string identity;
  std::vector<std::string> watched;
};

// The torch identity: from the locator the last probe of this interpreter
// left, while every path it watched keeps its stamp; else `probe()` now (and
// the locator rewritten). CacheUnusable when the locator cannot be written.
std::string torch_identity(const PythonExport& request, const std::filesystem::path& dir,
                           const std::function<TorchProbe()>& probe);

// The cache file name of an export of that torch for `request` with this exporter.
std::string cached_export_name(const std::string& torch_identity, const PythonExport& request,
                               std::string_view exporter_script);

}  // namespace dispatchctl
