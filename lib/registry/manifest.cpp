#include "registry/manifest.h"

#include "registry/key_lookup.h"
#include "registry/manifest_schemas.h"
#include "util/json_parse.h"
#include "util/suggest.h"

namespace dispatchctl {
namespace {

using json = nlohmann::ordered_json;

std::string type_name(const json& v) {
  switch (v.type()) {
    case json::value_t::null: return "null";
    case json::value_t::boolean: return "a boolean";
    case json::value_t::number_integer:
    case json::value_t::number_unsigned:
    case json::value_t::number_float: return "a number";
    case json::value_t::string: return "a string";
    case json::value_t::array: return "an array";
    case json::value_t::object: return "an object";
    default: return "something else";
  }
}

// Reads one JSON object against the fields the format allows, reporting
// problems as "FILE: /json/pointer: …".
class ObjectReader {
 public:
  ObjectReader(const json& object, std::string source, std::string pointer,
               std::vector<std::string_view> allowed)
      : object_(object), source_(std::move(source)), pointer_(std::move(pointer)) {
    if (!object.is_object()) fail(pointer_, "expected an object, got " + type_name(object));
    for (const auto& [name, value] : object.items()) {
      bool known = false;
      for (auto a : allowed) known = known || a == name;
      if (!known)
        fail(pointer_ + "/" + name,
             "unknown field '" + name + "'" + did_you_mean(name, allowed) +
                 (did_you_mean(name, allowed).empty() ? "; allowed: " + join(allowed) : ""));
    }
  }

  [[noreturn]] void fail(const std::string& pointer, const std::string& what) const {
    throw InputError(source_ + ": " + (pointer.empty() ? "/" : pointer) + ": " + what);
  }

  const json* get(const char* name) const {
    auto it = object_.find(name);
    return it == object_.end() ? nullptr : &*it;
  }
  std::string at(const char* name) const { return pointer_ + "/" + name; }

  std::optional<std::string> string(const char* name, bool required) const {
    const json* v = get(name);
    if (!v) {
      if (required) fail(pointer_, "missing required field '" + std::string(name) + "'");
      return std::nullopt;
    }
    if (!v->is_string()) fail(at(name), "expected a string, got " + type_name(*v));
    return v->get<std::string>();
  }

  std::optional<bool> boolean(const char* name) const {
    const json* v = get(name);
    if (!v) return std::nullopt;
    if (!v->is_boolean()) fail(at(name), "expected true or false, got " + type_name(*v));
    return v->get<bool>();
  }

  const json* array(const char* name) const {
    const json* v = get(name);
    if (v && !v->is_array()) fail(at(name), "expected an array, got " + type_name(*v));
    return v;
  }

  const std::string& pointer() const { return pointer_; }
  const std::string& source() const { return source_; }

 private:
  static std::string join(const std::vector<std::string_view>& words) {
    std::string out;
    for (auto w : words) out += (out.empty() ? "" : ", ") + std::string(w);
    return out;
  }
  const json& object_;
  std::string source_;
  std::string pointer_;
};

std::string checked_version(const ObjectReader& top) {
  const json* format = top.get("dispatchctl_manifest");
  if (!format) top.fail("", "missing required field 'dispatchctl_manifest' (use 1)");
  if (!format->is_number_integer() || format->get<long long>() != 1)
    top.fail("/dispatchctl_manifest", "unsupported manifest format " + format->dump() + "; expected 1");
  std::string version = *top.string("torch_version", true);
  if (!Catalogue::for_version(version)) {
    top.fail("/torch_version", "PyTorch '" + version + "' is not supported; supported: " +
                                   Catalogue::supported_versions_text());
  }
  return version;
}

const std::vector<std::string_view> k_top_fields = {"dispatchctl_manifest", "torch_version",
                                                    "fallbacks", "operators", "description"};
const std::vector<std::string_view> k_operator_fields = {"name", "schema", "debug",
                                                         "alias_analysis", "kernels"};
const std::vector<std::string_view> k_kernel_fields = {"key", "kernel", "fallthrough", "signature",
                                                       "boxed", "unboxed"};
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

ManifestDocument read_manifest(std::string_view text, const std::string& source) {
  ManifestDocument m{parse_json_or_throw(text, source), "", source};
  m.torch_version = checked_version(ObjectReader(m.doc, source, "", k_top_fields));
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
      kernels.push_back(std::move(kj));
    }
    if (!kernels.empty()) entry["kernels"] = std::move(kernels);
    operators.push_back(std::move(entry));
  }
  doc["operators"] = std::move(operators);
  return doc.dump(1) + "\n";
}

}  // namespace dispatchctl
