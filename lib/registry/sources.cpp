#include "registry/sources.h"

#include "builtin/builtin.h"
#include "registry/manifest.h"
#include "registry/torch_dump.h"
#include "util/file_io.h"

namespace dispatchctl {
namespace {

const Catalogue& catalogue_for(const std::string& version, const std::string& where) {
  if (const Catalogue* cat = Catalogue::for_version(version)) return *cat;
  std::string supported;
  for (const auto& v : Catalogue::supported_versions()) supported += (supported.empty() ? "" : ", ") + v;
  throw InputError(where + ": PyTorch '" + version + "' is not supported; supported: " + supported);
}

void require_same_release(const Registry& registry, const std::string& version,
                          const std::string& source) {
  if (Catalogue::for_version(version) != &registry.catalogue())
    throw InputError(source + ": torch_version '" + version + "' does not match '" +
                     registry.torch_version +
                     "' of the manifests loaded before; load manifests of one release");
}

}  // namespace

std::unique_ptr<Registry> import_torch_dump(const std::string& torch_version,
                                            std::string_view state_text,
                                            const std::string& state_source,
                                            std::string_view fallbacks_text,
                                            const std::string& fallbacks_source) {
  auto registry = std::make_unique<Registry>(catalogue_for(torch_version, state_source));
  registry->torch_version = torch_version;
  if (!fallbacks_text.empty()) import_torch_fallbacks(*registry, fallbacks_text, fallbacks_source);
  import_torch_state(*registry, state_text, state_source);
  registry->sources.push_back(state_source);
  return registry;
}

std::unique_ptr<Registry> load_registry(const std::vector<std::string>& sources,
                                        const OperatorFilter& only) {
  if (sources.empty()) return load_registry({std::string(k_default_registry)}, only);
  std::unique_ptr<Registry> registry;
  for (const auto& source : sources) {
    if (source.rfind(k_builtin_prefix, 0) == 0) {
      const BuiltinRegistry* builtin = find_builtin(source);
      if (!builtin) {
        std::string known;
        for (const auto& b : builtin_registries()) known += (known.empty() ? "" : ", ") + std::string("builtin:") + std::string(b.version);
        throw InputError(source + ": no such built-in registry; built in: " + known);
      }
      const std::string version(builtin->version);
      if (!registry) {
        registry = std::make_unique<Registry>(catalogue_for(version, source));
        registry->torch_version = version;
      } else {
        require_same_release(*registry, version, source);
      }
      import_torch_fallbacks(*registry, builtin->fallbacks_json, source + " fallbacks");
      import_torch_state(*registry, builtin->state, source, only);
      registry->sources.push_back(source);
      continue;
    }
    const std::string text = read_input_file(source);
    ManifestDocument manifest = read_manifest(text, source);
    if (!registry) {
      registry = std::make_unique<Registry>(catalogue_for(manifest.torch_version, source));
      registry->torch_version = manifest.torch_version;
    }
    apply_manifest(*registry, manifest);
  }
  return registry;
}

}  // namespace dispatchctl
