#include "torchgen/inputs.h"

#include <filesystem>

#include "util/errors.h"
#include "util/file_io.h"
#include "util/git_show.h"

namespace dispatchctl::torchgen {
namespace {

namespace fs = std::filesystem;

// NAME or NAME.gz inside DIR.
std::optional<YamlSource> optional_yaml(const fs::path& dir, const std::string& name) {
  for (const char* suffix : {"", ".gz"}) {
    const fs::path p = (dir / (name + suffix)).lexically_normal();  // "./aten/…" -> "aten/…" (annotations)
    std::error_code ec;
    if (fs::is_regular_file(p, ec)) return YamlSource{p.string(), read_input_file(p.string())};
  }
  return std::nullopt;
}

// git:REV — the checkout here at REV: its YAML read with `git show`.
std::optional<YamlSource> git_yaml(const std::string& rev, const std::string& path) {
  auto text = git_show(rev, "./" + path);
  if (!text) return std::nullopt;
  return YamlSource{"git:" + rev + ":" + path, std::move(*text)};
}

TorchgenInputs read_git_inputs(const std::string& rev) {
  if (auto nf = git_yaml(rev, "aten/src/ATen/native/native_functions.yaml"))
    return {*nf, git_yaml(rev, "aten/src/ATen/native/tags.yaml"), git_yaml(rev, "tools/autograd/derivatives.yaml")};
  if (auto nf = git_yaml(rev, "native_functions.yaml"))
    return {*nf, git_yaml(rev, "tags.yaml"), git_yaml(rev, "derivatives.yaml")};
  throw InputError("git:" + rev + ": no native_functions.yaml at that revision here nor in aten/src/ATen/native/; "
                   "run it in the PyTorch checkout (or the folder holding the YAML files)");
}

}  // namespace

TorchgenInputs read_torchgen_inputs(const std::string& path) {
  if (path.rfind("git:", 0) == 0) return read_git_inputs(path.substr(4));
  std::error_code ec;
  const fs::path root(path);
  if (fs::is_regular_file(root, ec)) {
    TorchgenInputs in{{path, read_input_file(path)}, optional_yaml(root.parent_path(), "tags.yaml"),
                      optional_yaml(root.parent_path(), "derivatives.yaml")};
    return in;
  }
  if (!fs::is_directory(root, ec))
    throw InputError(path + ": no such file or folder; give a PyTorch checkout, a folder with "
                            "native_functions.yaml, or the file itself");
  const fs::path native_dir = root / "aten" / "src" / "ATen" / "native";
  if (auto nf = optional_yaml(native_dir, "native_functions.yaml"))
    return {*nf, optional_yaml(native_dir, "tags.yaml"), optional_yaml(root / "tools" / "autograd", "derivatives.yaml")};
  if (auto nf = optional_yaml(root, "native_functions.yaml"))
    return {*nf, optional_yaml(root, "tags.yaml"), optional_yaml(root, "derivatives.yaml")};
  throw InputError(path + ": no native_functions.yaml here nor in aten/src/ATen/native/; give a PyTorch "
                          "checkout, a folder with the YAML files, or native_functions.yaml itself");
}

}  // namespace dispatchctl::torchgen
