// foreign-backend-key: a backend's manifest registers at its own backend's
// keys (an npu build: PrivateUse1, AutogradPrivateUse1); a kernel at another
// backend's key (XPU) is one that build cannot have: a copy-paste from
// another backend's registration, or a manifest mixing two builds. A note:
// a build may register there on purpose, and PyTorch accepts it.
#include <algorithm>
#include <map>

#include "check/lint.h"

namespace dispatchctl {

namespace {

// PyTorch's own native_functions.yaml (a torchgen: source) registers every
// backend: no backend's build. A backend's YAML (xla_native_functions.yaml) is one.
bool from_pytorch_yaml(const Kernel& k) {
  std::string_view file = k.origin.file();
  file.remove_prefix(file.rfind('/') == std::string_view::npos ? 0 : file.rfind('/') + 1);
  return file == "native_functions.yaml" || file == "native_functions.yaml.gz";
}

}  // namespace

void lint_foreign_backend_keys(const Registry& registry, const LintScope& scope, std::vector<Finding>& out) {
  if (!scope.kernel_by_user) return;  // PyTorch's own registry registers every backend
  const Catalogue& cat = registry.catalogue();
  auto users = [&](const Kernel& k) { return scope.kernel_by_user(k) && !from_pytorch_yaml(k); };
  std::map<int, size_t> kernels_per_backend;
  for (const auto& op : registry.operators())
    for (const auto& k : op.registrations)
      if (users(k) && cat.backend_of(k.key) > 0) ++kernels_per_backend[cat.backend_of(k.key)];
  if (kernels_per_backend.size() < 2) return;
  const auto own = std::max_element(kernels_per_backend.begin(), kernels_per_backend.end(),
                                    [](const auto& a, const auto& b) { return a.second < b.second; });
  // Two backends as large as each other: no build to call the manifest's own.
  if (std::count_if(kernels_per_backend.begin(), kernels_per_backend.end(),
                    [&](const auto& b) { return b.second == own->second; }) > 1)
    return;
  const std::string own_name = cat.name(cat.runtime_key(*cat.find("Dense"), own->first));
  for (const auto& op : registry.operators()) {
    if (!scope.contains(op)) continue;
    for (const auto& k : op.registrations) {
      const int backend = cat.backend_of(k.key);
      if (!users(k) || backend == 0 || backend == own->first) continue;
      Finding f;
      f.rule = "foreign-backend-key";
      f.severity = Severity::Note;
      f.op = op.name;
      f.key = cat.name(k.key);
      f.location = {std::string(k.origin.file()), k.origin.pointer(), k.origin.line(), 0};
      f.message = op.name + " has a kernel at " + f.key + " in a manifest of " + own_name + " kernels (" +
                  std::to_string(own->second) + " of them, autograd ones included): a build of that backend does "
                  "not register at " + f.key + " (a copy of another backend's registration?); register it at " +
                  own_name + "'s key, or drop it";
      out.push_back(std::move(f));
    }
  }
}

}  // namespace dispatchctl
