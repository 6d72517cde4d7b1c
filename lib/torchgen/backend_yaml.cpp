#include "torchgen/backend_yaml.h"

#include <yaml-cpp/yaml.h>

#include <map>
#include <set>
#include <stdexcept>

#include "torchgen/backend_stub_wrappers.h"
#include "torchgen/yaml_reading.h"
#include "util/errors.h"
#include "util/join.h"
#include "util/suggest.h"

namespace dispatchctl::torchgen {
namespace {

// gen_backend_stubs.parse_backend_yaml's keys (valid_keys plus the ones it pops).
const std::vector<std::string_view> k_valid_keys = {
    "backend", "class_name", "cpp_namespace", "extra_headers", "supported", "autograd", "full_codegen",
    "non_native", "ir_gen", "symint", "use_out_as_primary", "device_guard"};


struct BackendYamlReader {
  const YamlSource& source;
  const Registry& registry;
  const OperatorFilter& only;
  std::vector<std::string_view> op_names;

  std::vector<std::pair<std::string, int>> op_list(const YAML::Node& root, const char* field) {
    std::vector<std::pair<std::string, int>> ops;
    const YAML::Node list = root[field];
    if (!list || list.IsNull()) return ops;
    if (!list.IsSequence())
      fail_reading(source.path, line_of(list), std::string("expected \"") + field + "\" to be a list");
    for (const auto& item : list) {
      if (!item.IsScalar()) fail_reading(source.path, line_of(item), std::string("expected an operator name in \"") + field + "\"");
      const std::string name = "aten::" + item.Scalar();
      if (only && !only(name)) continue;
      if (!registry.find(name)) {
        if (op_names.empty())
          for (const auto& op : registry.operators()) op_names.push_back(op.name);
        fail_reading(source.path, line_of(item),
             "Found an invalid operator name: " + item.Scalar() + did_you_mean(name, op_names));
      }
      ops.emplace_back(name, line_of(item));
    }
    return ops;
  }

  std::string key_named(const std::string& name, int line, const std::string& message) const {
    const auto key = registry.catalogue().find(name);
    if (!key || !registry.catalogue().is_runtime(*key)) fail_reading(source.path, line, message);
    return name;
  }
};

// gen_backend_stubs: the variants of one op (functional, inplace, out=: one
// signature group) all go to the backend key or all to its autograd key.
void check_not_mixed(const YamlSource& source, const Registry& registry,
                     const std::vector<std::pair<std::string, int>>& forward,
                     const std::vector<std::pair<std::string, int>>& backward) {
  auto signature_of = [&](const std::string& op) -> std::string {
    const Operator* o = registry.find(op);
    if (!o || !o->schema) return op;
    try {
      return torchgen_text(signature(parse_torchgen_schema(o->schema->text)));
    } catch (const std::invalid_argument&) {
      return op;
    }
  };
  std::map<std::string, std::string> forward_by_signature;
  for (const auto& [op, line] : forward) forward_by_signature.emplace(signature_of(op), op);
  for (const auto& [op, line] : backward)
    if (auto it = forward_by_signature.find(signature_of(op)); it != forward_by_signature.end())
      fail_reading(source.path, line,
           "Currently, all variants of an op must either be registered to a backend key, or to a backend's "
           "autograd key. They cannot be mix and matched. " + it->second.substr(6) + " is listed under \"supported\", "
           "but " + op.substr(6) + " is listed under \"autograd\".");
}

// use_out_as_primary and device_guard: a YAML bool (gen_backend_stubs asserts isinstance bool), default false.
bool boolean_field(const YamlSource& source, const YAML::Node& root, const char* field) {
  const YAML::Node node = root[field];
  if (!node) return false;
  bool value = false;
  if (!node.IsScalar() || !YAML::convert<bool>::decode(node, value))
    fail_reading(source.path, line_of(node), std::string("You must provide either True or False for ") + field +
                                         "; write " + field + ": True or " + field + ": False");
  return value;
}

// NamespaceHelper(cpp_namespace, max_level=2): deeper namespaces make the generator fail.
void check_namespace_depth(const YamlSource& source, const YAML::Node& node) {
  constexpr int k_max_levels = 2;
  if (!node.IsScalar()) fail_reading(source.path, line_of(node), "expected \"cpp_namespace\" to be a C++ namespace");
  const std::string ns = node.Scalar();
  int levels = 1;
  for (size_t at = ns.find("::"); at != std::string::npos; at = ns.find("::", at + 2)) ++levels;
  if (levels > k_max_levels)
    fail_reading(source.path, line_of(node),
         "Codegen doesn't support more than " + std::to_string(k_max_levels) +
             " level(s) of custom namespace. Got " + ns + "; use at most two levels, e.g. " +
             ns.substr(ns.rfind("::") + 2) + "::native");
}

YAML::Node load(const YamlSource& source) {
  YAML::Node root = load_yaml_document(source);
  if (!root.IsMap()) fail_reading(source.path, line_of(root), "expected a YAML mapping with 'backend:' and 'supported:'");
  return root;
}

std::vector<PredictedRegistration> parse_checked(const YamlSource& source, const Registry& registry,
                                                 const OperatorFilter& only);

}  // namespace

std::vector<PredictedRegistration> parse_backend_yaml(const YamlSource& source, const Registry& registry,
                                                      const OperatorFilter& only) {
  try {
    return parse_checked(source, registry, only);
  } catch (const YAML::Exception& e) {
    fail_reading(source.path, e.mark.line + 1, "unexpected YAML: " + e.msg);
  }
}

namespace {
std::vector<PredictedRegistration> parse_checked(const YamlSource& source, const Registry& registry,
                                                 const OperatorFilter& only) {
  const YAML::Node root = load(source);
  for (const auto& kv : root) {
    const std::string key = kv.first.Scalar();
    bool known = false;
    for (auto v : k_valid_keys) known = known || v == key;
    if (!known) {
      fail_reading(source.path, line_of(kv.first), "contains unexpected keys: " + key + did_you_mean(key, k_valid_keys) +
                                               " Only the following keys are supported: " + join(k_valid_keys));
    }
  }
  const YAML::Node backend_node = root["backend"];
  if (!backend_node || !backend_node.IsScalar())
    fail_reading(source.path, line_of(root), "You must provide a value for \"backend\"");
  if (!root["cpp_namespace"]) fail_reading(source.path, line_of(root), "You must provide a value for \"cpp_namespace\"");
  const std::string backend = backend_node.Scalar();

  const bool out_as_primary = boolean_field(source, root, "use_out_as_primary");
  boolean_field(source, root, "device_guard");
  check_namespace_depth(source, root["cpp_namespace"]);

  BackendYamlReader reader{source, registry, only, {}};
  auto forward = reader.op_list(root, "supported");
  for (auto& op : reader.op_list(root, "full_codegen")) forward.push_back(op);
  const auto backward = reader.op_list(root, "autograd");

  check_not_mixed(source, registry, forward, backward);
  std::vector<PredictedRegistration> out;
  std::string autograd_key;
  if (!backward.empty())
    autograd_key = reader.key_named(
        "Autograd" + backend, line_of(root["autograd"]),
        "The \"autograd\" key was specified, which indicates that you would like to override the behavior of "
        "autograd for some operators on your backend. However \"Autograd" + backend + "\" is not a valid DispatchKey.");
  // gen_backend_stubs.run returns before writing any file when "supported"
  // (with full_codegen) is empty: autograd entries alone register nothing.
  if (forward.empty()) return out;
  const std::string key = reader.key_named(
      backend, line_of(backend_node),
      "The provided value for \"backend\" must be a valid DispatchKey, but got " + backend + ".");
  // Each key's Register<Key>.cpp: the listed kernels (a repeat is one entry of
  // the backend index), then the wrappers around listed functional kernels,
  // which use_out_as_primary turns off.
  auto add_key = [&](const std::vector<std::pair<std::string, int>>& listed, const std::string& at,
                     const char* listed_rule, const char* wrapper_rule) {
    const std::string generator = "Register" + at + ".cpp";
    std::set<std::string> seen;
    for (const auto& [op, line] : listed)
      if (seen.insert(op).second) out.push_back({op, at, listed_rule, generator, {source.path, line}});
    if (out_as_primary) return;
    for (const auto& w : stub_wrappers(registry, listed, source.path))
      out.push_back({w.op, at, wrapper_rule, generator, {source.path, w.line}});
  };
  add_key(forward, key, "backend-supported", "backend-wrapper");
  if (!backward.empty()) add_key(backward, autograd_key, "backend-autograd", "autograd-wrapper");
  return out;
}
}  // namespace

void apply_backend_yaml(Registry& registry, const YamlSource& source, const OperatorFilter& only) {
  for (const auto& r : parse_backend_yaml(source, registry, only)) {
    Kernel k;
    k.key = *registry.catalogue().find(r.key);
    const std::string yaml = r.loc.file.substr(r.loc.file.rfind('/') + 1);
    const std::string debug = "registered at " + r.generator + " [torchgen " + r.rule + ", " + yaml + "]";
    k.debug = debug;  // the line is in the origin
    k.origin = Origin{r.loc.file, "", r.loc.line};  // the rule is in the debug text
    k.source = predicted_source(r.generator);
    k.source_known = true;
    registry.impl(r.op, k);
  }
  registry.sources.push_back(std::string(k_torchgen_backend_prefix) + source.path);
}

}  // namespace dispatchctl::torchgen
