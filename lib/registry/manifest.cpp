#include "registry/manifest.h"

#include <algorithm>

#include "keys/profile.h"
#include "registry/key_lookup.h"
#include "util/json_object_reader.h"
#include "registry/manifest_schemas.h"
#include "util/json_parse.h"
#include "util/suggest.h"

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
// the one it is layered over, else a built-in one of the same MAJOR.MINOR.
const Catalogue& catalogue_of(const ObjectReader& top, const std::string& version,
                              const Catalogue* base) {
  if (const json* profile = top.get("release_profile"))
    return Catalogue::intern(read_release_profile(*profile, top.source(), "/release_profile", version));
  if (base && base->version() == major_minor(version)) return *base;
  if (const Catalogue* builtin = Catalogue::for_version(version)) return *builtin;
  top.fail("/torch_version",
           "PyTorch '" + version + "' is not supported: no release profile for it is built in (" +
               Catalogue::supported_versions_text() +
               ") and the manifest carries none; export one from that torch with "
               "'dispatchctl export --python PYTHON -o torch.json' and load it first (-m torch.json)");
}

// A manifest that defines PyTorch's own operators (an aten:: schema) is a
// whole registry; anything else (custom ops, backend kernels, fallbacks of
// one backend) is meant to be layered over its release's registry.
bool defines_aten(const json& doc) {
  auto ops = doc.find("operators");
  if (ops == doc.end() || !ops->is_array()) return false;
  for (const auto& op : *ops) {
    if (!op.is_object() || !op.contains("schema")) continue;
    auto name = op.find("name");
    if (name != op.end() && name->is_string() && name->get_ref<const std::string&>().rfind("aten::", 0) == 0)
      return true;
  }
  return false;
}

const std::vector<std::string_view> k_top_fields = {
    "dispatchctl_manifest", "torch_version", "fallbacks", "operators", "description",
    "release_profile", "recorded"};
const std::vector<std::string_view> k_operator_fields = {"name", "schema", "debug",
                                                         "alias_analysis", "kernels"};
const std::vector<std::string_view> k_kernel_fields = {"key", "kernel", "fallthrough", "signature",
                                                       "boxed", "unboxed", "then"};
// "then" values in KernelThen order (Default has none).
constexpr std::string_view k_then_names[] = {"", "return", "redispatch", "call", "decompose", "raise"};
const std::vector<std::string_view> k_fallback_fields = {"key", "kernel", "fallthrough"};

void check_operator_name(const ObjectReader& r, const std::string& name) {
  const auto sep = name.find("::");
  if (sep == std::string::npos || sep == 0 || sep + 2 >= name.size() || name.find(' ') != std::string::npos)
    r.fail(r.at("name"), "operator name '" + name + "' is not NAMESPACE::NAME[.OVERLOAD]");
}

void load_kernel(Registry& registry, const std::string& op_name, const ObjectReader& r) {
  Kernel kernel;
  kernel.key = require_key(registry.catalogue(), *r.string("key", true), r.source() + ": " + r.at("key"));
  kernel.debug = *r.string("kernel", true);
  kernel.fallthrough = r.boolean("fallthrough").value_or(false);
  kernel.signature = r.string("signature", false);
  kernel.boxed = r.boolean("boxed").value_or(true);
  // A fallthrough kernel is boxed only (manifest-format.md).
  kernel.unboxed = r.boolean("unboxed").value_or(!kernel.fallthrough);
  if (auto then = r.string("then", false)) {
    const auto* found = std::find(std::begin(k_then_names) + 1, std::end(k_then_names), *then);
    if (found == std::end(k_then_names))
      r.fail(r.at("then"), "'" + *then + "' is not what a kernel does next" +
                               did_you_mean(*then, {std::begin(k_then_names) + 1, std::end(k_then_names)}) +
                               "; expected return, redispatch, call, decompose or raise");
    kernel.then = static_cast<KernelThen>(found - std::begin(k_then_names));
  }
  kernel.origin = Origin{r.source(), r.pointer(), 0};
  registry.impl(op_name, std::move(kernel));
}

void load_operator(Registry& registry, const ObjectReader& r) {
  const std::string name = *r.string("name", true);
  check_operator_name(r, name);
  auto schema_text = r.string("schema", false);
  auto debug = r.string("debug", false);
  auto alias_analysis = r.string("alias_analysis", false);
  if (alias_analysis && *alias_analysis != "FROM_SCHEMA" && *alias_analysis != "CONSERVATIVE" &&
      *alias_analysis != "PURE_FUNCTION")
    r.fail(r.at("alias_analysis"), "'" + *alias_analysis +
                                       "' is not an alias analysis kind; expected FROM_SCHEMA, "
                                       "CONSERVATIVE or PURE_FUNCTION");
  if (!schema_text && (debug || alias_analysis))
    r.fail(r.pointer(), "'debug' and 'alias_analysis' describe a schema; add \"schema\" or remove them");
  if (schema_text) {
    Schema schema;
    schema.text = *schema_text;
    schema.debug = debug.value_or("");
    schema.alias_analysis = alias_analysis.value_or("CONSERVATIVE");
    schema.alias_analysis_explicit = alias_analysis.has_value();
    schema.origin = Origin{r.source(), r.at("schema"), 0};
    registry.define(name, std::move(schema));
  } else {
    registry.declare(name);
  }
  if (const json* kernels = r.array("kernels")) {
    for (size_t i = 0; i < kernels->size(); ++i)
      load_kernel(registry, name,
                  ObjectReader((*kernels)[i], r.source(), r.at("kernels") + "/" + std::to_string(i),
                               k_kernel_fields));
  }
}

}  // namespace

ManifestDocument read_manifest(std::string_view text, const std::string& source,
                               const Catalogue* base) {
  ManifestDocument m{parse_json_or_throw(text, source), "", source};
  ObjectReader top(m.doc, source, "", k_top_fields);
  m.torch_version = checked_version(top);
  m.catalogue = &catalogue_of(top, m.torch_version, base);
  m.has_profile = top.get("release_profile") != nullptr;
  m.whole_registry = defines_aten(m.doc);
  if (const json* recorded = top.get("recorded"); recorded && !recorded->is_object())
    top.fail("/recorded", "expected an object {\"tables\": {OP: TEXT}, \"states\": {OP: TEXT}}");
  check_manifest_schemas(m.doc, text, source, m.torch_version);
  return m;
}

void apply_manifest(Registry& registry, const ManifestDocument& manifest) {
  const json& doc = manifest.doc;
  const std::string& source = manifest.source;
  ObjectReader top(doc, source, "", k_top_fields);
  const std::string& version = manifest.torch_version;
  registry.require_release(version, source + ": /torch_version");
  if (registry.torch_version.empty()) registry.torch_version = version;
  if (top.get("description")) (void)top.string("description", false);
  if (const json* fallbacks = top.array("fallbacks")) {
    for (size_t i = 0; i < fallbacks->size(); ++i) {
      ObjectReader r((*fallbacks)[i], source, "/fallbacks/" + std::to_string(i), k_fallback_fields);
      Fallback fb;
      fb.key = require_runtime_key(registry.catalogue(), *r.string("key", true),
                                   source + ": " + r.at("key"));
      fb.debug = *r.string("kernel", true);
      fb.fallthrough = r.boolean("fallthrough").value_or(false);
      fb.origin = Origin{source, r.pointer(), 0};
      registry.fallback(std::move(fb));
    }
  }
  if (const json* operators = top.array("operators")) {
    for (size_t i = 0; i < operators->size(); ++i)
      load_operator(registry, ObjectReader((*operators)[i], source,
                                           "/operators/" + std::to_string(i), k_operator_fields));
  }
  registry.sources.push_back(source);
}

std::string write_manifest(const Registry& registry, const std::string& torch_version) {
  const Catalogue& cat = registry.catalogue();
  json doc;
  doc["dispatchctl_manifest"] = 1;
  doc["torch_version"] = torch_version;
  json fallbacks = json::array();
  for (const auto& fb : registry.fallbacks()) {
    json entry{{"key", cat.name(fb.key)}, {"kernel", fb.debug}};
    if (fb.fallthrough) entry["fallthrough"] = true;
    fallbacks.push_back(std::move(entry));
  }
  doc["fallbacks"] = std::move(fallbacks);
  json operators = json::array();
  for (const auto& op : registry.operators()) {
    json entry{{"name", op.name}};
    if (op.schema) {
      entry["schema"] = op.schema->text;
      entry["debug"] = op.schema->debug;
      if (op.schema->alias_analysis_explicit) entry["alias_analysis"] = op.schema->alias_analysis;
    }
    json kernels = json::array();
    for (const auto& k : op.registrations) {
      json kj{{"key", cat.name(k.key)}, {"kernel", k.debug}};
      if (k.fallthrough) kj["fallthrough"] = true;
      if (k.signature) kj["signature"] = *k.signature;
      if (!k.boxed) kj["boxed"] = false;
      if (k.unboxed == k.fallthrough) kj["unboxed"] = k.unboxed;
      if (k.then != KernelThen::Default) kj["then"] = k_then_names[static_cast<int>(k.then)];
      kernels.push_back(std::move(kj));
    }
    if (!kernels.empty()) entry["kernels"] = std::move(kernels);
    operators.push_back(std::move(entry));
  }
  doc["operators"] = std::move(operators);
  return doc.dump(1) + "\n";
}

}  // namespace dispatchctl
