#include "load/completion_names.h"
#include "builtin/builtin_catalogues.h"

#include <algorithm>
#include <optional>

#include "builtin/builtin.h"
#include "builtin/pack.h"
#include "keys/tensor_presets.h"
#include "load/load_registry.h"
#include "registry/operator_name.h"

namespace dispatchctl {
namespace {

// The built-in registries the sources name, or nullopt when a manifest file
// is among them (then the registry has to be loaded).
std::optional<std::vector<const BuiltinRegistry*>> builtins_only(const std::vector<std::string>& sources) {
  std::vector<const BuiltinRegistry*> out;
  if (sources.empty()) out.push_back(find_builtin(k_default_registry));
  for (const auto& s : sources) {
    const BuiltinRegistry* b = find_builtin(s);
    if (!b) return std::nullopt;
    out.push_back(b);
  }
  return out;
}

void add_name(std::vector<std::string>& names, std::string_view name, std::string_view prefix) {
  if (!name.starts_with(prefix)) return;
  names.emplace_back(name);
  const std::string_view bare = without_overload(name);
  if (bare.size() < name.size() && bare.starts_with(prefix)) names.emplace_back(bare);
}

void sort_unique(std::vector<std::string>& names) {
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
}

}  // namespace

std::vector<std::string> complete_operator_names(const std::vector<std::string>& sources, std::string_view prefix) {
  std::vector<std::string> names;
  if (auto builtins = builtins_only(sources)) {
    // Every TAB runs this: read the names of the embedded packs, import nothing.
    for (const BuiltinRegistry* b : *builtins)
      for (std::string_view name : pack_operator_names(b->pack, std::string(k_builtin_prefix) + std::string(b->version)))
        add_name(names, name, prefix);
  } else {
    auto registry = load_registry(sources, [prefix](std::string_view name) { return name.starts_with(prefix); });
    for (const Operator& op : registry->operators()) add_name(names, op.name, prefix);
  }
  sort_unique(names);
  return names;
}

namespace {

// The catalogue of the sources' release; `registry` keeps a loaded one alive.
const Catalogue& catalogue_of(const std::vector<std::string>& sources, std::unique_ptr<Registry>& registry) {
  if (auto builtins = builtins_only(sources)) return *builtin_catalogue(builtins->front()->version);
  registry = load_registry(sources, [](std::string_view) { return false; });
  return registry->catalogue();
}

bool accepted_by(const Catalogue& cat, Key k, KeyClass accepted) {
  switch (accepted) {
    case KeyClass::Any: return true;
    case KeyClass::Runtime: return cat.is_runtime(k);
    case KeyClass::RuntimeOrAlias: return cat.is_runtime(k) || cat.is_alias(k);
    case KeyClass::Alias: return cat.is_alias(k);
    case KeyClass::NotAlias: return !cat.is_alias(k);
  }
  return true;
}

}  // namespace

std::vector<std::string> complete_key_names(const std::vector<std::string>& sources, std::string_view prefix,
                                            KeyClass accepted) {
  std::unique_ptr<Registry> registry;
  const Catalogue& cat = catalogue_of(sources, registry);
  std::vector<std::string> names;
  for (std::string_view name : cat.key_names())
    if (name.starts_with(prefix))
      if (const auto k = cat.find(name); k && accepted_by(cat, *k, accepted)) names.emplace_back(name);
  sort_unique(names);
  return names;
}

std::vector<std::string> complete_tensor_forms(const std::vector<std::string>& sources, std::string_view prefix) {
  std::unique_ptr<Registry> registry;
  const Catalogue& cat = catalogue_of(sources, registry);
  std::vector<std::string> forms;
  const size_t colon = prefix.rfind(':');
  if (colon == std::string_view::npos) {
    for (const std::string& preset : tensor_preset_names(cat))
      if (preset.starts_with(prefix)) forms.push_back(preset);
  } else {
    const std::string_view head = prefix.substr(0, colon + 1);
    for (const std::string& modifier : tensor_modifier_names(cat))
      if (modifier.starts_with(prefix.substr(colon + 1))) forms.push_back(std::string(head) + modifier);
  }
  sort_unique(forms);
  return forms;
}

}  // namespace dispatchctl
