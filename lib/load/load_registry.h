// The loading layer's entry: `-m` values (load/source_spec.h) into one
// Registry, layered in the order given; a first manifest that is not a whole
// registry goes over its release's built-in registry unless LoadRequest::bare.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "registry/registry.h"
#include "registry/torch_dump.h"

namespace dispatchctl {

// Called with every manifest document loaded (files and -m python exports), so a
// command that needs more of it than the registry (verify's recorded dumps) does
// not parse it again.
struct ManifestDocument;
using ManifestObserver = std::function<void(const ManifestDocument&)>;

// What a command asks of the loader; the CLI fills it from -m and --bare.
struct LoadRequest {
  // -m values in order; none means the default registry (the newest built in).
  std::vector<std::string> sources;
  // --layer: whether a first manifest goes over its release's built-in
  // registry. Auto: when it is not a whole registry (it defines no aten::
  // operator and redeclares none of PyTorch's fallbacks), saying so in a note
  // either way; Builtin: always; Bare (--bare): never.
  enum class Layering { Auto, Builtin, Bare };
  Layering layering = Layering::Auto;
  // Skips the other operators of built-in registries (manifest files are
  // always loaded whole, so their errors are never hidden).
  OperatorFilter only = {};
  ManifestObserver on_manifest = {};
  // -m python exports keep what PyTorch printed for every operator (for
  // `verify`; a cache entry of its own, ~10 times larger).
  bool python_recorded = false;
};
std::unique_ptr<Registry> load_registry(const LoadRequest& request);
// "auto", "builtin" or "bare" (any case): --layer's words, and the Python
// module's layering argument; nullopt for another word.
std::optional<LoadRequest::Layering> layering_named(std::string_view word);
// The layering rule alone, for a loader of its own (check's): what goes under
// `manifest` when it is the first source. `base` is the built-in registry to
// load first ("" for none); `note` says why, to be shown as a note ("" when
// the rule has nothing to say). InputError for --layer builtin without a
// built-in registry of its release.
struct LayeringDecision {
  std::string base;
  std::string note;
};
LayeringDecision decide_layering(const ManifestDocument& manifest, LoadRequest::Layering layering);
// The same with the defaults (layering as README "Layering by default" says).
std::unique_ptr<Registry> load_registry(const std::vector<std::string>& sources,
                                        const OperatorFilter& only = {});
// `torchgen:PATH?build-backends=LIST`: what torchgen generates from that YAML
// for a build with those backends ("" = torchgen's default, CPU), in place of
// the registry's codegen registrations (an empty registry: the predictions alone).
void apply_torchgen_yaml(Registry& registry, const std::string& path, const std::string& build_backends);
// A registry from a torch dump (state text and optional fallbacks JSON text).
std::unique_ptr<Registry> import_torch_dump(const std::string& torch_version,
                                            std::string_view state_text,
                                            const std::string& state_source,
                                            std::string_view fallbacks_text,
                                            const std::string& fallbacks_source);

}  // namespace dispatchctl
