#include "render/keys_render.h"

#include <numeric>
#include <vector>


#include "keys/key_summary.h"
#include "render/json_document.h"
#include "util/join.h"

namespace dispatchctl {

namespace {
std::vector<std::string> names_of(const Catalogue& cat, const std::vector<Key>& keys) {
  std::vector<std::string> out;
  for (Key k : keys) out.push_back(cat.name(k));
  return out;
}

std::vector<Key> autograd_runtime_keys(const Catalogue& cat) {
  std::vector<Key> out;
  for (Key k : cat.runtime_keys())
    if (k != k_undefined && cat.included_in_alias(k, *cat.alias(Alias::Autograd))) out.push_back(k);
  return out;
}
}  // namespace

nlohmann::ordered_json alias_json(const Catalogue& cat, Key alias) {
  const auto keys = cat.alias_runtime_keys(alias);
  return {{"name", cat.name(alias)}, {"count", keys.size()}, {"runtime_keys", names_of(cat, keys)}};
}

std::string alias_text(const Catalogue& cat, Key alias) {
  const auto keys = cat.alias_runtime_keys(alias);
  std::string out = cat.name(alias) + " (" + std::to_string(keys.size()) + " runtime keys)\n";
  for (Key k : keys) out += "  " + cat.name(k) + "\n";
  return out;
}

nlohmann::ordered_json catalogue_json(const Catalogue& cat) {
  nlohmann::ordered_json j = json_document();
  j["torch_version"] = cat.version();
  j["backends"] = cat.spec().backends;
  nlohmann::ordered_json functionalities = nlohmann::ordered_json::array();
  for (Key f = 1; f <= cat.spec().functionalities.size(); ++f)
    functionalities.push_back({{"value", f},
                               {"name", cat.name(f)},
                               {"per_backend", cat.is_per_backend_functionality(f)}});
  j["functionality_keys"] = std::move(functionalities);
  nlohmann::ordered_json runtime = nlohmann::ordered_json::array();
  for (Key k : cat.runtime_keys())
    runtime.push_back({{"name", cat.name(k)},
                       {"value", k},
                       {"python_parseable", cat.python_parseable(cat.name(k))}});
  j["runtime_keys"] = std::move(runtime);
  nlohmann::ordered_json aliases = nlohmann::ordered_json::array();
  for (Key k = 0; k < cat.key_count(); ++k)
    if (cat.is_alias(k)) aliases.push_back(alias_json(cat, k));
  j["alias_keys"] = std::move(aliases);
  j["autogradother_backends"] = names_of(cat, cat.iterate(cat.autogradother_backends()));
  nlohmann::ordered_json autograd = nlohmann::ordered_json::object();
  for (Key k : autograd_runtime_keys(cat))
    autograd[cat.name(k)] = names_of(cat, cat.iterate(cat.backend_set_from_autograd(k)));
  j["backend_set_of_autograd_key"] = std::move(autograd);
  std::vector<std::string> parseable;
  for (auto n : cat.key_names())
    if (cat.python_parseable(n)) parseable.emplace_back(n);
  j["python_parseable_names"] = parseable;
  const ReleaseSpec& spec = cat.spec();
  nlohmann::ordered_json presets = nlohmann::ordered_json::array();
  for (const auto& [name, keys] : spec.tensor_presets)
    presets.push_back({{"name", name}, {"keys", keys}, {"observed", !spec.preset_inferred(name)}});
  j["tensor_presets"] = std::move(presets);
  nlohmann::ordered_json modifiers = nlohmann::ordered_json::array();
  for (const auto& [name, key] : spec.tensor_modifier_keys)
    modifiers.push_back({{"name", name}, {"key", key}, {"observed", !spec.modifier_inferred(name)}});
  j["tensor_modifiers"] = std::move(modifiers);
  return j;
}

namespace {
// trace's --tensor presets as the profile holds them; `~` marks what the
// exporter inferred because the build could not make such a tensor.
std::string presets_text(const Catalogue& cat, size_t width) {
  const ReleaseSpec& spec = cat.spec();
  std::string out = "\n" + wrap_words("Tensor presets of 'trace --tensor' (~ = inferred, not observed: the "
                                      "build could not make such a tensor):", 0, 2, width) + "\n";
  for (const auto& [name, keys] : spec.tensor_presets) {
    out += wrap_words("  " + std::string(name) + (spec.preset_inferred(name) ? "~" : "") + ": " + join(keys), 0, 6,
                      width) + "\n";
  }
  const std::string mods = join(spec.tensor_modifier_keys, ", ", [&spec](const auto& modifier) {
    const auto& [name, key] = modifier;
    return std::string(name) + (spec.modifier_inferred(name) ? "~" : "") + " adds " + std::string(key);
  });
  if (!mods.empty()) out += wrap_words("  modifiers: " + mods, 0, 6, width) + "\n";
  return out;
}
}  // namespace

std::string catalogue_text(const Catalogue& cat, size_t width) {
  std::string out = wrap_words("Dispatch keys of PyTorch " + std::string(cat.version()) + " (verified on " +
                                    std::string(cat.spec().reference_build) + ")", 0, 2, width) + "\n\n";
  out += "Backends (" + std::to_string(cat.backend_count()) + ", BackendComponent order):\n  ";
  out += wrap_words(join(cat.spec().backends, " "), 2, 2, width) +
         "\n\nFunctionality keys, lowest to highest priority (* = per-backend building block):\n";
  // A plain vector: clang with libstdc++ 12 (the fuzz build) rejects views::iota over Key.
  std::vector<Key> functionalities(cat.spec().functionalities.size());
  std::iota(functionalities.begin(), functionalities.end(), Key{1});
  const std::string functionality_names = join(functionalities, " ", [&cat](Key f) {
    return cat.name(f) + (cat.is_per_backend_functionality(f) ? "*" : "");
  });
  out += "  " + wrap_words(functionality_names, 2, 2, width) + "\n";
  out += "\n" + wrap_words("Runtime keys (" + std::to_string(cat.runtime_keys().size()) +
                               " table rows, in table order; ~ = not accepted by Python's parseDispatchKey):", 0, 2,
                           width) + "\n";
  const std::string runtime_names = join(cat.runtime_keys(), " ", [&cat](Key k) {
    return cat.name(k) + (cat.python_parseable(cat.name(k)) ? "" : "~");
  });
  out += "  " + wrap_words(runtime_names, 2, 2, width) + "\n";
  out += "\nAlias keys (kernels registered to them fill these rows):\n";
  for (Key k = 0; k < cat.key_count(); ++k) {
    if (!cat.is_alias(k)) continue;
    const auto keys = cat.alias_runtime_keys(k);
    out += wrap_words("  " + cat.name(k) + " (" + std::to_string(keys.size()) + "): " + summarize_keys(cat, keys), 0, 6,
                      width) + "\n";
  }
  out += "\n" + wrap_words("Autogradother backends (a kernel here plus CompositeImplicitAutograd makes "
                           "AutogradOther ambiguous):", 0, 2, width) + "\n  " +
         wrap_words(summarize_keys(cat, cat.iterate(cat.autogradother_backends())), 2, 2, width) + "\n";
  out += "\nBackend set of each autograd key (a kernel there blocks the math kernel):\n";
  for (Key k : autograd_runtime_keys(cat)) {
    const auto set = cat.iterate(cat.backend_set_from_autograd(k));
    out += wrap_words("  " + cat.name(k) + ": " + (set.empty() ? std::string("(empty)") : summarize_keys(cat, set)), 0,
                      6, width) + "\n";
  }
  return out + presets_text(cat, width);
}

}  // namespace dispatchctl
