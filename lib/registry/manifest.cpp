#include "registry/manifest.h"
#include "registry/manifest_generated_calls.h"

#include <algorithm>
#include <filesystem>
#include <functional>
#include <type_traits>

#include "keys/profile.h"
#include "registry/composite_calls.h"
#include "registry/key_lookup.h"
#include "util/json_object_reader.h"
#include "registry/manifest_names.h"
#include "registry/manifest_schemas.h"
#include "util/file_io.h"
#include "registry/manifest_stream.h"
#include "util/suggest.h"
#include "registry/operator_name.h"

namespace dispatchctl {
namespace {

using json = nlohmann::ordered_json;

std::string checked_version(const ObjectReader& top) {
  const json* format = top.get("dispatchctl_manifest");
  if (!format) top.fail("", "missing required field 'dispatchctl_manifest' (use 1)");
  if (!format->is_number_integer() || format->get<long long>() != 1)
    top.fail("/dispatchctl_manifest", "unsupported manifest format " + format->dump() + "; expected 1");
  std::string version = *top.string("torch_version", true);
  if (major_minor(version).empty())
    top.fail("/torch_version", "'" + version + "' is not a PyTorch release number MAJOR.MINOR[.PATCH]");
  return version;
}

// The catalogue a manifest's keys are read against: its own profile, else
// the one it is layered over, else a known one of the same MAJOR.MINOR.
const Catalogue& catalogue_of(const ObjectReader& top, const std::string& version,
                              const ManifestCatalogues& catalogues) {
  if (const json* profile = top.get("release_profile"))
    return Catalogue::intern(read_release_profile(*profile, top.source(), "/release_profile", version));
  if (catalogues.base && catalogues.base->version() == major_minor(version)) return *catalogues.base;
  if (const Catalogue* known = catalogues.known.find(version)) return *known;
  top.fail("/torch_version",
           "PyTorch '" + version + "' is not supported: no release profile for it is built in (" +
               catalogues.known.versions_text() +
               ") and the manifest carries none; export one from that torch with "
               "'dispatchctl export --python PYTHON -o torch.json' and load it first (-m torch.json)");
}

const std::vector<std::string_view> k_top_fields = {
    "dispatchctl_manifest", "torch_version", "fallbacks", "operators", "description",
    "release_profile", "recorded", "backend_name", "composite_calls", "generated_calls"};
const std::vector<std::string_view> k_operator_fields = {"name", "schema", "debug",
                                                         "alias_analysis", "kernels"};
const std::vector<std::string_view> k_kernel_fields = {"key", "kernel", "fallthrough", "signature",
                                                       "boxed", "unboxed", "then", "generated_call"};
const std::vector<std::string_view> k_fallback_fields = {"key", "kernel", "fallthrough"};
const std::vector<std::string_view> k_generated_call_fields = {"op", "kind"};

std::string operator_pointer(size_t index) { return "/operators/" + std::to_string(index); }

void check_operator_name_at(const ObjectReader& r, const std::string& pointer, const std::string& name) {
  if (!is_qualified_operator_name(name))
    r.fail(pointer, "operator name '" + name + "' is not NAMESPACE::NAME[.OVERLOAD]");
}

void check_operator_name(const ObjectReader& r, const std::string& name) { check_operator_name_at(r, r.at("name"), name); }

using Problem = ManifestOperator::Problem;

std::optional<Text> kept(StringPool& strings, const std::optional<std::string>& text) {
  if (!text) return std::nullopt;
  return Text(strings.keep(*text));
}

// "generated_call": {"op": "aten::add.out", "kind": "structured_out"}.
GeneratedCall read_generated_call(const ObjectReader& kernel, StringPool& strings) {
  return read_generated_call_fields(
      ObjectReader(*kernel.object("generated_call", true), kernel.source(), kernel.at("generated_call"),
                   k_generated_call_fields),
      strings);
}

}  // namespace

GeneratedCall read_generated_call_fields(const ObjectReader& r, StringPool& strings) {
  const std::string op = *r.string("op", true);
  check_operator_name_at(r, r.at("op"), op);
  const std::string kind = *r.string("kind", true);
  std::vector<std::string_view> kinds;
  for (GeneratedCallKind k : k_generated_call_kinds) {
    if (generated_call_kind_id(k) == kind) return GeneratedCall{strings.keep(op), k};
    kinds.push_back(generated_call_kind_id(k));
  }
  r.fail(r.at("kind"), "'" + kind + "' is not a kind of generated call" + did_you_mean(kind, kinds) +
                           "; expected structured_out, autogen_out or autogen_functional");
}

namespace {

// One "kernels" element, checked up to its key's resolution (`at` says how far).
ManifestKernel read_kernel(const ObjectReader& r, StringPool& strings, Problem::At& at, std::string& key) {
  ManifestKernel kernel;
  at = Problem::At::KernelKey;
  key = *r.string("key", true);
  kernel.key = strings.keep(key);
  at = Problem::At::Kernel;
  kernel.kernel = strings.keep(*r.string("kernel", true));
  kernel.fallthrough = r.boolean("fallthrough").value_or(false);
  kernel.signature = kept(strings, r.string("signature", false));
  kernel.boxed = r.boolean("boxed").value_or(true);
  // A fallthrough kernel is boxed only (docs/manifest-format.md).
  kernel.unboxed = r.boolean("unboxed").value_or(!kernel.fallthrough);
  if (auto then = r.string("then", false)) {
    const auto* found = std::find(std::begin(k_then_names) + 1, std::end(k_then_names), *then);
    if (found == std::end(k_then_names))
      r.fail(r.at("then"), "'" + *then + "' is not what a kernel does next" +
                               did_you_mean(*then, {std::begin(k_then_names) + 1, std::end(k_then_names)}) +
                               "; expected return, redispatch, call, decompose, raise or autograd");
    kernel.then = static_cast<KernelThen>(found - std::begin(k_then_names));
  }
  if (r.get("generated_call")) kernel.generated_call = read_generated_call(r, strings);
  return kernel;
}

// One "operators" element as a record: everything but its keys checked now,
// the first problem kept for apply_manifest to throw where a walk meets it.
ManifestOperator read_operator(const json& element, size_t index, const std::string& source, StringPool& strings) {
  ManifestOperator op;
  if (element.is_object()) {  // what the schema check reads even of a broken entry
    if (auto schema = element.find("schema"); schema != element.end() && schema->is_string())
      op.schema = Text(strings.keep(schema->get_ref<const std::string&>()));
    if (auto name = element.find("name"); name != element.end() && name->is_string()) {
      const std::string& text = name->get_ref<const std::string&>();
      // The name starts the schema ("ns::op(Tensor self) -> Tensor"): kept once.
      const bool in_schema = op.schema && op.schema->size() > text.size() && op.schema->starts_with(text) &&
                             (*op.schema)[text.size()] == '(';
      op.name = in_schema ? op.schema->substr(0, text.size()) : strings.keep(text);
      op.name_is_string = true;
    }
  }
  Problem::At at = Problem::At::Operator;
  std::string key;
  try {
    const ObjectReader r(element, source, operator_pointer(index), k_operator_fields);
    const std::string name = *r.string("name", true);
    check_operator_name(r, name);
    (void)r.string("schema", false);
    op.debug = kept(strings, r.string("debug", false));
    op.alias_analysis = kept(strings, r.string("alias_analysis", false));
    if (op.alias_analysis && *op.alias_analysis != "FROM_SCHEMA" && *op.alias_analysis != "CONSERVATIVE" &&
        *op.alias_analysis != "PURE_FUNCTION")
      r.fail(r.at("alias_analysis"), "'" + *op.alias_analysis +
                                         "' is not an alias analysis kind; expected FROM_SCHEMA, "
                                         "CONSERVATIVE or PURE_FUNCTION");
    if (!op.schema && (op.debug || op.alias_analysis))
      r.fail(r.pointer(), "'debug' and 'alias_analysis' describe a schema; add \"schema\" or remove them");
    at = Problem::At::AfterDefine;
    if (const json* kernels = r.array("kernels")) {
      op.kernels.reserve(kernels->size());
      for (size_t i = 0; i < kernels->size(); ++i) {
        at = Problem::At::KernelKey;
        const ObjectReader kernel((*kernels)[i], source, r.at("kernels") + "/" + std::to_string(i), k_kernel_fields);
        op.kernels.push_back(read_kernel(kernel, strings, at, key));
      }
    }
  } catch (const InputError& e) {
    op.problem = std::make_unique<Problem>(Problem{at, e, std::move(key)});
  }
  return op;
}

// A manifest that defines PyTorch's own operators (an aten:: schema) is a
// whole registry; anything else (custom ops, backend kernels, fallbacks of
// one backend) is meant to be layered over its release's registry.
bool defines_aten(const json& element) {
  if (!element.is_object() || !element.contains("schema")) return false;
  auto name = element.find("name");
  return name != element.end() && name->is_string() &&
         name->get_ref<const std::string&>().rfind("aten::", 0) == 0;
}

// The top-level fields: the format, the release and its catalogue.
void read_header(ManifestDocument& m, const ManifestCatalogues& catalogues) {
  ObjectReader top(m.doc, m.source, "", k_top_fields);
  m.known = &catalogues.known;
  m.torch_version = checked_version(top);
  m.catalogue = &catalogue_of(top, m.torch_version, catalogues);
  m.has_profile = top.get("release_profile") != nullptr;
  if (const json* recorded = top.get("recorded"); recorded && !recorded->is_object())
    top.fail("/recorded", "expected an object {\"tables\": {OP: TEXT}, \"states\": {OP: TEXT}}");
}

ManifestDocument read_streamed(const std::function<StreamedManifest(const OperatorSink&)>& stream,
                               const std::function<std::string()>& text, const std::string& source,
                               const ManifestCatalogues& catalogues) {
  ManifestDocument m;
  m.source = source;
  const OperatorSink keep = [&m, &source](json&& element) {
    if (defines_aten(element)) {
      if (!m.whole_registry) m.first_aten_definition = element["name"].get<std::string>();
      m.whole_registry = true;
      ++m.aten_definitions;
    }
    m.operators.push_back(read_operator(element, m.operators.size(), source, *m.strings));
  };
  StreamedManifest streamed = stream(keep);
  m.doc = std::move(streamed.top);
  m.bytes = streamed.bytes;
  read_header(m, catalogues);
  check_manifest_schemas(m.operators, text, source, *m.catalogue);
  return m;
}

// The record's strings are kept as they are (the registry keeps their pool);
// origins are the entries' ordinals (their pointers are made when printed).
void apply_operator(Registry& registry, const ManifestOperator& op, size_t index, const std::string& source,
                    const KnownReleases* known) {
  const Problem* problem = op.problem.get();
  if (problem && problem->at == Problem::At::Operator) throw problem->error;
  const std::string pointer = operator_pointer(index);
  if (op.schema) {
    Schema schema;
    schema.text = *op.schema;
    if (op.debug) schema.debug = *op.debug;
    if (op.alias_analysis) schema.alias_analysis = *op.alias_analysis;
    schema.alias_analysis_explicit = op.alias_analysis.has_value();
    schema.origin = Origin::manifest_schema(source, static_cast<std::uint32_t>(index));
    registry.define(op.name, schema, Registry::Strings::Keep);
  } else {
    registry.declare(op.name, Registry::Strings::Keep, op.kernels.size());
  }
  if (problem && problem->at == Problem::At::AfterDefine) throw problem->error;
  auto resolve = [&](std::string_view key, size_t i) {
    return require_key(registry.catalogue(), key, InputLocation{source, pointer + "/kernels/" + std::to_string(i) + "/key"},
                       known);
  };
  for (size_t i = 0; i < op.kernels.size(); ++i) {
    const auto& k = op.kernels[i];
    Kernel kernel;
    kernel.key = resolve(k.key, i);
    kernel.debug = k.kernel;
    kernel.fallthrough = k.fallthrough;
    if (k.signature) kernel.signature = *k.signature;
    kernel.boxed = k.boxed;
    kernel.unboxed = k.unboxed;
    kernel.then = k.then;
    kernel.origin = Origin::manifest_kernel(source, static_cast<std::uint32_t>(index), static_cast<std::uint32_t>(i));
    const std::uint32_t registered_before = registry.registration_count();
    registry.impl(op.name, kernel, Registry::Strings::Keep);
    if (k.generated_call && registry.registration_count() > registered_before)
      registry.record_generated_call(registry.find(op.name)->registrations.back(), k.generated_call->callee,
                                     k.generated_call->kind, Registry::Strings::Keep);
  }
  if (!problem) return;
  if (problem->at == Problem::At::Kernel) (void)resolve(problem->key, op.kernels.size());
  throw problem->error;
}

// What comes before the operators: the release, the description, the fallbacks.
void apply_header(Registry& registry, const ManifestDocument& manifest) {
  const json& doc = manifest.doc;
  const std::string& source = manifest.source;
  ObjectReader top(doc, source, "", k_top_fields);
  const std::string& version = manifest.torch_version;
  registry.require_release(version, source + ": /torch_version");
  if (top.get("description")) (void)top.string("description", false);
  // torch.utils.rename_privateuse1_backend(NAME): PyTorch's texts then say NAME.
  if (top.get("backend_name")) {
    const std::string name = *top.string("backend_name", false);
    if (name.empty() || name.find_first_of(" '\"\t\n") != std::string::npos)
      top.fail("/backend_name", "'" + name + "' is not a backend name; give the name your backend passes to " +
                                    "torch.utils.rename_privateuse1_backend, e.g. \"npu\"");
    if (!registry.privateuse1_backend.empty() && registry.privateuse1_backend != name)
      top.fail("/backend_name", "'" + name + "': the PrivateUse1 backend is already named '" +
                                    registry.privateuse1_backend + "' (PyTorch renames it once)");
    registry.privateuse1_backend = name;
  }
  if (const json* fallbacks = top.array("fallbacks")) {
    for (size_t i = 0; i < fallbacks->size(); ++i) {
      ObjectReader r((*fallbacks)[i], source, "/fallbacks/" + std::to_string(i), k_fallback_fields);
      Fallback fb;
      fb.key = require_runtime_key(registry.catalogue(), *r.string("key", true),
                                   source + ": " + r.at("key"), manifest.known);
      const std::string debug = *r.string("kernel", true);
      fb.debug = debug;
      fb.fallthrough = r.boolean("fallthrough").value_or(false);
      fb.origin = Origin{source, r.pointer(), 0};
      registry.fallback(std::move(fb));
    }
  }
  (void)top.array("operators");  // kept only when it is not an array: says so
  registry.keep_alive(manifest.strings);
}

// What the manifest's hand-written composites (or those of what it is layered
// over) call: applied once their kernels are registered (docs/composite-calls.md).
void apply_trailer(Registry& registry, const json& doc, const std::string& source) {
  if (const json* calls = ObjectReader(doc, source, "", k_top_fields).object("composite_calls", false))
    apply_composite_calls(registry, *calls, source, "/composite_calls");
  if (const json* calls = ObjectReader(doc, source, "", k_top_fields).array("generated_calls"))
    apply_generated_calls_section(registry, *calls, source);
}

template <class Doc>
void apply_document(Registry& registry, Doc&& manifest) {
  apply_header(registry, manifest);
  const std::string& source = manifest.source;
  registry.reserve_operators(manifest.operators.size());
  if constexpr (std::is_const_v<std::remove_reference_t<Doc>>) {
    size_t index = 0;
    for (const auto& op : manifest.operators) apply_operator(registry, op, index++, source, manifest.known);
  } else {
    // Each record dropped once applied: the registry grows as they go.
    for (size_t index = 0; !manifest.operators.empty(); ++index) {
      apply_operator(registry, manifest.operators.front(), index, source, manifest.known);
      manifest.operators.pop_front();
    }
  }
  apply_trailer(registry, manifest.doc, source);
  registry.sources.push_back(source);
}

}  // namespace

ManifestOperator::ManifestOperator(const ManifestOperator& other)
    : name(other.name),
      schema(other.schema),
      debug(other.debug),
      alias_analysis(other.alias_analysis),
      kernels(other.kernels),
      problem(other.problem ? std::make_unique<Problem>(*other.problem) : nullptr),
      name_is_string(other.name_is_string) {}

ManifestDocument read_manifest(std::string_view text, const std::string& source, const ManifestCatalogues& catalogues) {
  return read_streamed([&](const OperatorSink& sink) { return stream_manifest_text(text, source, sink); },
                       [text] { return std::string(text); }, source, catalogues);
}

ManifestDocument read_manifest_file(const std::string& path, const std::string& source, const ManifestCatalogues& catalogues) {
  return read_streamed([&](const OperatorSink& sink) { return stream_manifest_file(path, source, sink); },
                       [&path] { return read_input_file(path); }, source, catalogues);
}

void apply_manifest(Registry& registry, ManifestDocument&& manifest) { apply_document(registry, std::move(manifest)); }

void apply_manifest(Registry& registry, const ManifestDocument& manifest) { apply_document(registry, manifest); }

namespace {
struct GaveUp {};  // not an InputError: nothing on the way catches it
}  // namespace

std::optional<ManifestDocument> apply_manifest_file_streaming(
    const std::string& path, const std::string& source, const ManifestCatalogues& catalogues,
    const std::function<Registry*(const ManifestDocument& header)>& registry_for, bool aten_definitions_refused) {
  ManifestDocument m;
  m.source = source;
  Registry* registry = nullptr;
  size_t fields_before = 0, index = 0;
  const OperatorsStart start = [&](const json& top) {
    m.doc = top;
    read_header(m, catalogues);
    registry = registry_for(m);
    if (!registry) throw GaveUp{};
    apply_header(*registry, m);
    fields_before = top.size();
    // A manifest file's entries take ~200 bytes an operator: growing the table
    // by doubling instead would hold the old one and the new one at once.
    constexpr std::uintmax_t k_bytes_per_operator_guess = 128;
    std::error_code unknown;
    if (const auto bytes = std::filesystem::file_size(path, unknown); !unknown)
      registry->reserve_operator_table(static_cast<size_t>(bytes / k_bytes_per_operator_guess));
  };
  const auto no_text = []() -> std::string { throw GaveUp{}; };
  const OperatorSink apply = [&](json&& element) {
    if (!registry || (aten_definitions_refused && defines_aten(element))) throw GaveUp{};
    const ManifestOperator op = read_operator(element, index, source, *m.strings);
    if (op.problem) throw GaveUp{};
    check_manifest_schema(op, index, no_text, source, *m.catalogue);
    apply_operator(*registry, op, index++, source, m.known);
  };
  try {
    StreamedManifest streamed = stream_manifest_file(path, source, apply, start);
    if (!registry) return std::nullopt;
    // What may follow "operators" and not change what was applied (an export ends with "recorded").
    for (auto field = std::next(streamed.top.begin(), static_cast<std::ptrdiff_t>(fields_before));
         field != streamed.top.end(); ++field)
      if (field.key() != "recorded" && field.key() != "description" && field.key() != "composite_calls" &&
          field.key() != "generated_calls")
        return std::nullopt;
    m.doc = std::move(streamed.top);
    m.bytes = streamed.bytes;
    if (m.doc.size() != fields_before) {
      read_header(m, catalogues);
      (void)ObjectReader(m.doc, source, "", k_top_fields).string("description", false);
    }
  } catch (const GaveUp&) {
    return std::nullopt;
  } catch (const InputError&) {
    return std::nullopt;
  }
  apply_trailer(*registry, m.doc, source);
  registry->sources.push_back(source);
  return m;
}

}  // namespace dispatchctl
