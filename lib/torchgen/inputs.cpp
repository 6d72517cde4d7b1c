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

// git:REV[:PATH] — the checkout here at REV: its YAML read with `git show`
// (NAME or NAME.gz, as in a folder).
std::optional<YamlSource> git_yaml(const std::string& rev, const fs::path& dir, const std::string& name) {
  for (const char* suffix : {"", ".gz"}) {
    const std::string path = (dir / (name + suffix)).lexically_normal().generic_string();
    auto text = git_show(rev, "./" + path);
    if (!text) continue;
    const std::string shown = "git:" + rev + ":" + path;
    return YamlSource{shown, is_gzip(*text) ? gunzip(*text, shown) : std::move(*text)};
  }
  return std::nullopt;
}

bool names_yaml_file(const std::string& path) {
  return path.ends_with(".yaml") || path.ends_with(".yaml.gz");
}

// PATH as in the working tree: native_functions.yaml itself (tags.yaml,
// derivatives.yaml and deprecated.yaml beside it), a checkout's root, or a folder with the files.
TorchgenInputs read_git_inputs(const GitPath& at) {
  const std::string& rev = at.revision;
  const fs::path root = at.path.empty() ? fs::path(".") : fs::path(at.path);
  if (names_yaml_file(at.path)) {
    const fs::path dir = root.parent_path().empty() ? fs::path(".") : root.parent_path();
    auto text = git_show(rev, "./" + at.path);
    if (!text) throw InputError("git:" + rev + ":" + at.path + ": no such file at that revision (the path is relative "
                                "to the current directory)");
    const std::string shown = "git:" + rev + ":" + at.path;
    return {{shown, is_gzip(*text) ? gunzip(*text, shown) : std::move(*text)}, git_yaml(rev, dir, "tags.yaml"),
            git_yaml(rev, dir, "derivatives.yaml"), git_yaml(rev, dir, "deprecated.yaml")};
  }
  const fs::path native_dir = root / "aten" / "src" / "ATen" / "native";
  if (auto nf = git_yaml(rev, native_dir, "native_functions.yaml"))
    return {*nf, git_yaml(rev, native_dir, "tags.yaml"), git_yaml(rev, root / "tools" / "autograd", "derivatives.yaml"),
            git_yaml(rev, root / "tools" / "autograd", "deprecated.yaml")};
  if (auto nf = git_yaml(rev, root, "native_functions.yaml"))
    return {*nf, git_yaml(rev, root, "tags.yaml"), git_yaml(rev, root, "derivatives.yaml"),
            git_yaml(rev, root, "deprecated.yaml")};
  const std::string where = at.path.empty() ? "in the checkout's root" : "in " + at.path;
  throw InputError("git:" + rev + (at.path.empty() ? "" : ":" + at.path) + ": no native_functions.yaml at that revision " +
                   where + " nor in its aten/src/ATen/native/; run it in the PyTorch checkout, or name the folder "
                   "holding the YAML files or the file (torchgen:git:REV:PATH)");
}

}  // namespace

TorchgenInputs read_torchgen_inputs(const std::string& path) {
  if (const auto at = parse_git_path(path, false)) return read_git_inputs(*at);
  std::error_code ec;
  const fs::path root(path);
  if (fs::is_regular_file(root, ec)) {
    TorchgenInputs in{{path, read_input_file(path)}, optional_yaml(root.parent_path(), "tags.yaml"),
                      optional_yaml(root.parent_path(), "derivatives.yaml"),
                      optional_yaml(root.parent_path(), "deprecated.yaml")};
    return in;
  }
  if (!fs::is_directory(root, ec))
    throw InputError(path + ": no such file or folder; give a PyTorch checkout, a folder with "
                            "native_functions.yaml, or the file itself");
  const fs::path native_dir = root / "aten" / "src" / "ATen" / "native";
  if (auto nf = optional_yaml(native_dir, "native_functions.yaml"))
    return {*nf, optional_yaml(native_dir, "tags.yaml"), optional_yaml(root / "tools" / "autograd", "derivatives.yaml"),
            optional_yaml(root / "tools" / "autograd", "deprecated.yaml")};
  if (auto nf = optional_yaml(root, "native_functions.yaml"))
    return {*nf, optional_yaml(root, "tags.yaml"), optional_yaml(root, "derivatives.yaml"),
            optional_yaml(root, "deprecated.yaml")};
  throw InputError(path + ": no native_functions.yaml here nor in aten/src/ATen/native/; give a PyTorch "
                          "checkout, a folder with the YAML files, or native_functions.yaml itself");
}

}  // namespace dispatchctl::torchgen
