#include "registry/sources.h"

#include "builtin/builtin.h"
#include "registry/manifest.h"
#include "registry/torch_dump.h"
#include "torchgen/apply.h"
#include "torchgen/backend_yaml.h"
#include "util/file_io.h"
#include "util/log.h"

namespace dispatchctl {
namespace {

const Catalogue& catalogue_for(const std::string& version, const std::string& where) {
  if (const Catalogue* cat = Catalogue::for_version(version)) return *cat;
  throw InputError(where + ": PyTorch '" + version + "' is not supported; supported: " +
                   Catalogue::supported_versions_text());
}

// PyTorch prints UTF-8 text. Binary junk (NUL bytes, invalid UTF-8) would
// otherwise pass the line parser inside debug strings and then make
// write_manifest throw nlohmann's type_error 316 and abort `import`
// (tests/bad_input: invalid_utf8_dump.txt, nul_in_dump.txt).
void require_utf8_text(std::string_view text, const std::string& source) {
  int line = 1;
  for (size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c == '\n') ++line;
    if (c == 0)
      throw InputError(source + ":" + std::to_string(line) + ": NUL byte; expected _dispatch_dump text");
    if (c < 0x80) {
      ++i;
      continue;
    }
    size_t n = c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3 : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
    bool ok = n != 0 && i + n <= text.size();
    for (size_t j = 1; ok && j < n; ++j) ok = (static_cast<unsigned char>(text[i + j]) & 0xC0) == 0x80;
    if (ok && n >= 3) {  // no overlong forms, surrogates or code points above U+10FFFF
      const auto c1 = static_cast<unsigned char>(text[i + 1]);
      ok = !(c == 0xE0 && c1 < 0xA0) && !(c == 0xED && c1 > 0x9F) && !(c == 0xF0 && c1 < 0x90) &&
           !(c == 0xF4 && c1 > 0x8F);
    }
    if (!ok)
      throw InputError(source + ":" + std::to_string(line) +
                       ": invalid UTF-8; expected _dispatch_dump text");
    i += n;
  }
}

}  // namespace

std::unique_ptr<Registry> import_torch_dump(const std::string& torch_version,
                                            std::string_view state_text,
                                            const std::string& state_source,
                                            std::string_view fallbacks_text,
                                            const std::string& fallbacks_source) {
  auto registry = std::make_unique<Registry>(catalogue_for(torch_version, state_source));
  registry->torch_version = torch_version;
  require_utf8_text(state_text, state_source);
  if (!fallbacks_text.empty()) import_torch_fallbacks(*registry, fallbacks_text, fallbacks_source);
  import_torch_state(*registry, state_text, state_source);
  registry->sources.push_back(state_source);
  return registry;
}

std::unique_ptr<Registry> load_registry(const std::vector<std::string>& sources,
                                        const OperatorFilter& only) {
  if (sources.empty()) {
    log_verbose("no -m given: using {}", k_default_registry);
    return load_registry({std::string(k_default_registry)}, only);
  }
  PhaseTimer timer("load");
  std::unique_ptr<Registry> registry;
  for (const auto& source : sources) {
    const size_t operators_before = registry ? registry->operators().size() : 0;
    const size_t fallbacks_before = registry ? registry->fallbacks().size() : 0;
    if (registry) log_verbose("layering {} over {}", source, fmt::join(registry->sources, " + "));
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
        registry->require_release(version, source);
      }
      import_torch_fallbacks(*registry, builtin->fallbacks_json, source + " fallbacks");
      import_torch_state(*registry, builtin->state, source, only);
      registry->sources.push_back(source);
      log_verbose("loaded {} (PyTorch {}'s registry, embedded in the binary): operators: {}{}, backend fallbacks: {}",
                  source, version, registry->operators().size() - operators_before,
                  only ? " (only those the command names)" : "", registry->fallbacks().size() - fallbacks_before);
      continue;
    }
    // --- torchgen (issue 12): `torchgen:PATH`; to move into the typed -m loader ---
    if (source.rfind(torchgen::k_torchgen_prefix, 0) == 0) {
      if (!registry) {
        registry = std::make_unique<Registry>(catalogue_for(torchgen::TorchgenOptions{}.release, source));
        registry->torch_version = torchgen::TorchgenOptions{}.release;
      }
      const std::string path = source.substr(torchgen::k_torchgen_prefix.size());
      torchgen::apply_torchgen(*registry, torchgen::read_torchgen_inputs(path), {});
      continue;
    }
    if (source.rfind(torchgen::k_torchgen_backend_prefix, 0) == 0) {
      // A backend YAML names operators of PyTorch: alone, it goes over the default registry.
      if (!registry) registry = load_registry({std::string(k_default_registry)}, only);
      const std::string path = source.substr(torchgen::k_torchgen_backend_prefix.size());
      torchgen::apply_backend_yaml(*registry, {path, read_input_file(path)}, only);
      continue;
    }
    // --- end torchgen ---
    const std::string text = read_input_file(source);
    ManifestDocument manifest = read_manifest(text, source);
    if (!registry) {
      registry = std::make_unique<Registry>(catalogue_for(manifest.torch_version, source));
      registry->torch_version = manifest.torch_version;
    }
    apply_manifest(*registry, manifest);
    log_verbose("loaded {} (manifest of PyTorch {}, {} bytes): new operators: {}, new backend fallbacks: {}", source,
                manifest.torch_version, text.size(),
                registry->operators().size() - operators_before, registry->fallbacks().size() - fallbacks_before);
  }
  return registry;
}

}  // namespace dispatchctl
