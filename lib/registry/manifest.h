// The registration manifest (docs/manifest-format.md, schema in
// schemas/manifest.schema.json): loading one onto a Registry, and writing
// a Registry back out. A manifest is read streaming (manifest_stream.h):
// its operators are kept as ManifestOperator records, not as JSON.
#pragma once

#include <deque>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "keys/known_releases.h"
#include "registry/registry.h"
#include "util/errors.h"

namespace dispatchctl {

// The records' strings are views into their document's `strings` pool,
// which the registry they are applied to keeps (no second copy of a large
// manifest's text).
struct ManifestKernel {
  Text key;  // resolved against the catalogue when applied
  Text kernel;
  std::optional<Text> signature;
  bool fallthrough = false, boxed = true, unboxed = true;
  KernelThen then = KernelThen::Default;
  // "generated_call": what torchgen's generated composite kernel calls
  // (Registry::generated_call), when the manifest's writer knew it.
  std::optional<GeneratedCall> generated_call;
};

// One element of "operators", checked as far as it can be without the
// release's keys. A problem found in it is reported when applying reaches
// that point, so errors come in the order a walk over the document gives them.
struct ManifestOperator {
  Text name;  // "name" when it is a string
  std::optional<Text> schema;  // "schema" when it is a string
  std::optional<Text> debug, alias_analysis;
  std::vector<ManifestKernel> kernels;  // those before the first problem
  struct Problem {
    enum class At { Operator, AfterDefine, KernelKey, Kernel } at = At::Operator;
    InputError error;
    std::string key;  // At::Kernel: the key of that registration, resolved first
  };
  std::unique_ptr<Problem> problem;
  bool name_is_string = false;

  ManifestOperator() = default;
  ManifestOperator(ManifestOperator&&) = default;
  ManifestOperator& operator=(ManifestOperator&&) = default;
  ManifestOperator(const ManifestOperator& other);
};

// A parsed manifest whose format, torch_version and release profile were checked.
struct ManifestDocument {
  nlohmann::ordered_json doc;  // every top-level field but an "operators" array
  std::deque<ManifestOperator> operators;  // that array's elements, in order
  std::shared_ptr<StringPool> strings = std::make_shared<StringPool>();  // what they view
  std::string torch_version;
  std::string source;
  // Its keys' catalogue: from its "release_profile", else as ManifestCatalogues says.
  const Catalogue* catalogue = nullptr;
  bool has_profile = false;
  // Defines aten:: operators: a whole registry, not something to layer
  // (load/load_registry's rule, which names the first in a note).
  bool whole_registry = false;
  size_t aten_definitions = 0;
  std::string first_aten_definition;
  size_t bytes = 0;  // of JSON text read
  // The releases the reader knew (ManifestCatalogues::known): a kernel's key
  // of another release is then named so ("exists from PyTorch 2.x on").
  const KnownReleases* known = nullptr;
};
// The catalogue a manifest without a "release_profile" is read against: `base`
// (the registry it is layered over) when of its release, else one of `known`
// (the loading layer passes the built-in releases).
struct ManifestCatalogues {
  const KnownReleases& known;
  const Catalogue* base = nullptr;
};
ManifestDocument read_manifest(std::string_view text, const std::string& source,
                               const ManifestCatalogues& catalogues);
// The same, reading the file in blocks (gunzipped first when it is gzip).
ManifestDocument read_manifest_file(const std::string& path, const std::string& source,
                                    const ManifestCatalogues& catalogues);
// Applies a manifest's registrations on top of what the registry holds,
// like a library loaded after the earlier ones. The rvalue form moves the
// operators out as it goes (a large manifest is not held twice).
void apply_manifest(Registry& registry, ManifestDocument&& manifest);
void apply_manifest(Registry& registry, const ManifestDocument& manifest);
// Applies a manifest file while reading it (issue 14): each operator goes
// into the registry once read, so memory grows with the registry, not with
// the file. `registry_for` is asked for the registry once the top-level
// fields before "operators" are read (a manifest that defines aten::
// operators is refused when `aten_definitions_refused`: its registry was
// chosen as for one that does not). std::nullopt when the file cannot be
// applied in the order it is written (fields after "operators", no
// "operators" array), or anything in it is wrong: the registry may then be
// half-changed, and the caller rolls it back and reads the file with
// read_manifest_file + apply_manifest, which report errors in their order.
std::optional<ManifestDocument> apply_manifest_file_streaming(
    const std::string& path, const std::string& source, const ManifestCatalogues& catalogues,
    const std::function<Registry*(const ManifestDocument& header)>& registry_for, bool aten_definitions_refused);
// The registry as one manifest (operators and kernels in registration order).
std::string write_manifest(const Registry& registry, const std::string& torch_version);

}  // namespace dispatchctl
