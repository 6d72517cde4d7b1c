#include "load/load_registry.h"

#include "builtin/builtin.h"
#include "builtin/builtin_catalogues.h"
#include "builtin/pack.h"
#include "keys/profile.h"
#include "load/python_export.h"
#include "load/source_spec.h"
#include "registry/manifest.h"
#include "registry/torch_dump.h"
#include "torchgen/apply.h"
#include "torchgen/backend_yaml.h"
#include "util/file_io.h"
#include "util/log.h"
#include "util/join.h"

namespace dispatchctl {
namespace {

const Catalogue& catalogue_for(const std::string& version, const std::string& where) {
  if (const Catalogue* cat = builtin_catalogue(version)) return *cat;
  throw InputError(where + ": PyTorch '" + version + "' is not supported; supported: " +
                   builtin_releases().versions_text());
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
  auto registry = std::make_unique<Registry>(catalogue_for(torch_version, state_source), torch_version);
  require_utf8_text(state_text, state_source);
  if (!fallbacks_text.empty()) import_torch_fallbacks(*registry, fallbacks_text, fallbacks_source);
  import_torch_state(*registry, state_text, state_source);
  registry->sources.push_back(state_source);
  return registry;
}

namespace {

const BuiltinRegistry& require_builtin(const SourceSpec& spec) {
  if (const BuiltinRegistry* builtin = find_builtin(spec.argument)) return *builtin;
  throw InputError(spec.text + ": no such built-in registry; built in: " + builtin_registry_names());
}

void load_builtin(std::unique_ptr<Registry>& registry, const SourceSpec& spec,
                  const OperatorFilter& only) {
  const BuiltinRegistry& builtin = require_builtin(spec);
  const std::string version(builtin.release);  // "2.6.0" of builtin:2.6.0+cuda
  if (!registry) {
    registry = std::make_unique<Registry>(catalogue_for(std::string(builtin.version), spec.text), version);
  } else {
    registry->require_release(version, spec.text);
  }
  const size_t operators_before = registry->operators().size(), fallbacks_before = registry->fallbacks().size();
  load_pack(*registry, builtin.pack, spec.text, only);  // its fallbacks too
  registry->sources.push_back(spec.text);
  log_verbose("loaded {} (PyTorch {}'s registry, embedded in the binary): operators: {}{}, backend fallbacks: {}",
              spec.text, registry->torch_version(), registry->operators().size() - operators_before,
              only ? " (only those the command names, and what their generated composites call)" : "",
              registry->fallbacks().size() - fallbacks_before);
}

void load_manifest(std::unique_ptr<Registry>& registry, ManifestDocument& manifest) {
  if (!registry) {
    registry = std::make_unique<Registry>(*manifest.catalogue, manifest.torch_version);
  }
  apply_manifest(*registry, std::move(manifest));  // its operators move into the registry
}

// A manifest re-declaring fallbacks the base registry has describes a
// dispatcher of its own (a small complete registry), not an addition to PyTorch.
bool redeclares_fallbacks(const ManifestDocument& manifest, const BuiltinRegistry& base) {
  auto fallbacks = manifest.doc.find("fallbacks");
  if (fallbacks == manifest.doc.end() || !fallbacks->is_array()) return false;
  const auto base_fallbacks = nlohmann::json::parse(base.fallbacks_json, nullptr, false);
  for (const auto& fb : *fallbacks)
    if (fb.is_object() && fb.contains("key") && fb["key"].is_string() &&
        base_fallbacks.is_object() && base_fallbacks.contains(fb["key"].get<std::string>()))
      return true;
  return false;
}

}  // namespace

// The layering rule (README "Layering"): a first manifest that is not a whole
// registry goes over its release's built-in registry; --layer builtin always
// layers, --layer bare (--bare) never. A manifest taken for a whole registry
// because it defines aten:: operators is told in a note, naming one: a
// backend manifest defining one by mistake would otherwise flip to bare
// loading silently (issue 24 item 5).
LayeringDecision decide_layering(const ManifestDocument& manifest, LoadRequest::Layering layering) {
  using Layering = LoadRequest::Layering;
  if (layering == Layering::Bare) return {};
  const BuiltinRegistry* base = find_builtin(major_minor(manifest.torch_version));
  // No CPU-only build of the release is built in, another build is (2.6.0+cuda):
  // that one is the release's registry, said so in the note.
  std::string other_build;
  if (!base) {
    for (const BuiltinRegistry& b : builtin_registries())
      if (major_minor(b.release) == major_minor(manifest.torch_version) && b.predicted_from.empty()) {
        base = &b;
        other_build = " (the built-in registry of PyTorch " + major_minor(manifest.torch_version) + ", a " +
                      std::string(b.build) + " build)";
        break;
      }
  }
  const std::string base_name = base ? std::string(k_builtin_prefix) + std::string(base->version) : "";
  if (layering == Layering::Auto) {
    if (base && redeclares_fallbacks(manifest, *base)) return {};
    // An export (it carries its release profile) is a whole registry by
    // construction: nothing to say. A hand-written manifest that defines an
    // aten:: operator may be a backend's by mistake: say which one decided.
    if (manifest.whole_registry && manifest.has_profile) return {};
    if (manifest.whole_registry)
      return {"", manifest.source + ": loaded alone: it defines " + manifest.first_aten_definition +
                      (manifest.aten_definitions > 1
                           ? " and " + std::to_string(manifest.aten_definitions - 1) + " more aten:: operators"
                           : "") +
                      ", so the layering rule takes it for a whole registry" +
                      (base ? "; --layer builtin layers it over " + base_name : "")};
  }
  if (layering == Layering::Builtin && !base)
    throw InputError(manifest.source + ": --layer builtin: no registry of PyTorch " + manifest.torch_version +
                     " is built in (built in: " + builtin_registry_names() + "); use --layer auto or bare");
  if (!base || (manifest.has_profile && manifest.catalogue->version() != major_minor(base->version)))
    return {"", manifest.source + ": defines no aten:: operators, and no registry of PyTorch " +
                    manifest.torch_version + " is built in: loaded bare (export that torch's whole registry "
                    "with 'dispatchctl export' and pass it first to layer over it)"};
  return {base_name, manifest.source + ": layered over " + base_name + other_build +
                         (layering == Layering::Builtin ? " (--layer builtin)"
                                                        : " (it defines no aten:: operators; --bare loads it alone)")};
}

namespace {

void layer_base_if_needed(std::unique_ptr<Registry>& registry, const ManifestDocument& manifest,
                          const LoadRequest& request, std::vector<std::string>& notes) {
  if (registry) return;
  LayeringDecision decision = decide_layering(manifest, request.layering);
  if (!decision.base.empty()) load_builtin(registry, parse_source_spec(decision.base), request.only);
  if (!decision.note.empty()) notes.push_back(std::move(decision.note));
}

// A manifest file applied while it is read (registry/manifest.h) when it
// can be; otherwise, or when anything in it is wrong, the registry is rolled
// back and the file read whole first, which reports errors in their order.
// Rolling back a registry that holds operators costs a copy of it: past
// this many, the file is read whole.
constexpr size_t k_copied_for_rollback = 100000;

ManifestDocument read_and_apply(std::unique_ptr<Registry>& registry, const std::string& path,
                                const std::string& source, const LoadRequest& request,
                                std::vector<std::string>& notes) {
  if (!registry || registry->operators().size() <= k_copied_for_rollback) {
    std::unique_ptr<Registry> before = registry ? std::make_unique<Registry>(*registry) : nullptr;
    const size_t notes_before = notes.size();
    // Auto decides on the header and gives up on the stream at an aten::
    // definition, which makes the manifest a whole registry after all.
    const bool base_chosen_here = !registry && request.layering == LoadRequest::Layering::Auto;
    auto registry_for = [&](const ManifestDocument& header) {
      layer_base_if_needed(registry, header, request, notes);  // as for a manifest defining no aten:: operator
      if (!registry) {
        registry = std::make_unique<Registry>(*header.catalogue, header.torch_version);
      }
      return registry.get();
    };
    if (auto applied = apply_manifest_file_streaming(path, source, {builtin_releases(), before ? &before->catalogue() : nullptr},
                                                     registry_for, base_chosen_here))
      return std::move(*applied);
    registry = std::move(before);
    notes.resize(notes_before);
  }
  ManifestDocument manifest = read_manifest_file(path, source, {builtin_releases(), registry ? &registry->catalogue() : nullptr});
  layer_base_if_needed(registry, manifest, request, notes);
  load_manifest(registry, manifest);
  return manifest;
}

// `-m python[:P]`: that Python's export, cached (load/python_export.h).
ExportedManifest python_manifest(const SourceSpec& spec, bool recorded) {
  PythonExport export_request;
  if (!spec.argument.empty()) export_request.interpreter = spec.argument;
  export_request.imports = spec.imports;
  export_request.recorded = recorded;
  export_request.composite_calls = spec.composite_calls;
  export_request.progress = [](const std::string& text) { log_note("{}", text); };
  return cached_python_export(export_request);
}

}  // namespace

void apply_torchgen_yaml(Registry& registry, const std::string& path, const std::string& build_backends) {
  torchgen::TorchgenOptions options;
  if (!build_backends.empty())
    options.build_backends = torchgen::parse_build_backends(build_backends, registry.torch_version());
  torchgen::apply_torchgen(registry, torchgen::read_torchgen_inputs(path), options);
}

std::unique_ptr<Registry> load_registry(const std::vector<std::string>& sources, const OperatorFilter& only) {
  return load_registry(LoadRequest{sources, LoadRequest::Layering::Auto, only});
}

namespace {

// One source of a load, each kind on its own: `registry` is null for the
// first, `notes` are told once everything loaded (an error stays one line).
using Built = std::unique_ptr<Registry>;
using Notes = std::vector<std::string>;

void load_file(Built& registry, const SourceSpec& spec, const LoadRequest& request, Notes& notes) {
  const size_t operators_before = registry ? registry->operators().size() : 0;
  const size_t fallbacks_before = registry ? registry->fallbacks().size() : 0;
  const ManifestDocument manifest = read_and_apply(registry, spec.argument, spec.argument, request, notes);
  if (request.on_manifest) request.on_manifest(manifest);
  log_verbose("loaded {} (manifest of PyTorch {}, {} bytes): new operators: {}, new backend fallbacks: {}",
              spec.text, manifest.torch_version, manifest.bytes, registry->operators().size() - operators_before,
              registry->fallbacks().size() - fallbacks_before);
}

void load_python(Built& registry, const SourceSpec& spec, const LoadRequest& request, Notes& notes) {
  const size_t operators_before = registry ? registry->operators().size() : 0;
  const ExportedManifest exported = python_manifest(spec, request.python_recorded);
  const std::string& path = exported.path();
  ManifestDocument manifest =
      read_manifest_file(path, spec.text, {builtin_releases(), registry ? &registry->catalogue() : nullptr});
  const std::size_t calls_before = registry ? registry->generated_call_count() : 0;
  load_manifest(registry, manifest);
  if (request.on_manifest) request.on_manifest(manifest);
  log_verbose("loaded {} (export of PyTorch {} from {}): operators: {}", spec.text, manifest.torch_version, path,
              registry->operators().size() - operators_before);
  // No torchgen YAML beside that torch, or it could not be read (load/export_generated_calls.h).
  if (registry->generated_call_count() == calls_before && manifest.whole_registry)
    notes.push_back(spec.text + ": the export says nothing of what torchgen's generated composites call (no "
                    "torchgen/packaged/ATen/native/native_functions.yaml beside its torch, or it could not be read; "
                    "-v on the exporting run says which): they are taken at face value");
}

// Alone, the predictions of the default release's rules; over a base, they
// replace its codegen registrations (lib/torchgen/apply.h).
void load_torchgen(Built& registry, const SourceSpec& spec) {
  if (!registry) {
    const std::string release(k_default_release);
    registry = std::make_unique<Registry>(catalogue_for(release, spec.text), release);
  }
  apply_torchgen_yaml(*registry, spec.argument, spec.build_backends);
  registry->sources.push_back(spec.text);
}

// A backend YAML names operators of PyTorch: alone, it goes over the default registry.
void load_backend_yaml(Built& registry, const SourceSpec& spec, const LoadRequest& request, Notes& notes) {
  if (!registry) {
    registry = load_registry({std::string(k_default_registry)}, request.only);
    notes.push_back(spec.text + ": layered over " + std::string(k_default_registry) +
                    " (a backend YAML adds to PyTorch's operators)");
  }
  torchgen::apply_backend_yaml(*registry, {spec.argument, read_input_file(spec.argument)}, request.only);
  registry->sources.push_back(spec.text);
}

}  // namespace

std::unique_ptr<Registry> load_registry(const LoadRequest& request) {
  if (request.sources.empty()) {
    log_verbose("no -m given: using {}", k_default_registry);
    LoadRequest with_default = request;
    with_default.sources = {std::string(k_default_registry)};
    return load_registry(with_default);
  }
  PhaseTimer timer("load");
  Built registry;
  Notes notes;
  for (const auto& text : request.sources) {
    const SourceSpec spec = parse_source_spec(text);
    if (registry) log_verbose("layering {} over {}", text, fmt::join(registry->sources, " + "));
    switch (spec.kind) {
      case SourceSpec::Kind::Builtin:
        load_builtin(registry, spec, request.only);
        if (const BuiltinRegistry* b = find_builtin(spec.argument); b && !b->predicted_from.empty())
          notes.push_back(text + ": a predicted registry, not a real build ('dispatchctl registries' says how it "
                          "was made); every predicted kernel says 'predicted'");
        break;
      case SourceSpec::Kind::File: load_file(registry, spec, request, notes); break;
      case SourceSpec::Kind::Python: load_python(registry, spec, request, notes); break;
      case SourceSpec::Kind::Torchgen: load_torchgen(registry, spec); break;
      case SourceSpec::Kind::TorchgenBackend: load_backend_yaml(registry, spec, request, notes); break;
    }
  }
  for (const auto& n : notes) log_note("{}", n);
  return registry;
}

std::optional<LoadRequest::Layering> layering_named(std::string_view word) {
  std::string lower(word);
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  if (lower == "auto") return LoadRequest::Layering::Auto;
  if (lower == "builtin") return LoadRequest::Layering::Builtin;
  if (lower == "bare") return LoadRequest::Layering::Bare;
  return std::nullopt;
}

}  // namespace dispatchctl
