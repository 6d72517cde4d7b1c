#include <yaml-cpp/yaml.h>

#include <stdexcept>

#include "torchgen/deprecated.h"
#include "torchgen/refusals.h"
#include "util/errors.h"

namespace dispatchctl::torchgen {
namespace {

int line_of(const YAML::Node& node) { return node.Mark().line + 1; }

[[noreturn]] void refuse(std::string_view kind, const std::string& file, int line, const std::string& reason) {
  const RefusalKind* k = refusal_kind(kind);
  throw TorchgenRefusal(Refusal{{file, line}, "", std::string(kind), reason, k ? std::string(k->fix) : ""});
}

// deprecated["name"] / deprecated["aten"]: a KeyError (or a TypeError for a
// value that is no string) ends gen_python_functions there.
std::string field(const YAML::Node& entry, const char* name, const std::string& file) {
  const YAML::Node value = entry[name];
  if (!value || !value.IsScalar())
    refuse("malformed-entry", file, line_of(value ? value : entry),
           std::string("a deprecated.yaml entry needs `") + name + ":` as a string (load_deprecated_signatures)");
  return value.Scalar();
}

}  // namespace

std::vector<DeprecatedSignature> parse_deprecated_yaml(const YamlSource& source) {
  YAML::Node root;
  try {
    root = YAML::Load(source.text);
  } catch (const YAML::ParserException& e) {
    throw InputError(source.path + ":" + std::to_string(e.mark.line + 1) + ": YAML syntax error: " + e.msg);
  }
  std::vector<DeprecatedSignature> out;
  if (root.IsNull()) return out;
  if (!root.IsSequence())
    refuse("malformed-entry", source.path, line_of(root), "expected a YAML list of entries ('- name: ...')");
  for (const auto& entry : root) {
    if (!entry.IsMap()) refuse("malformed-entry", source.path, line_of(entry), "expected an entry '- name: SCHEMA'");
    DeprecatedSignature d;
    d.loc = {source.path, line_of(entry)};
    const std::string name = field(entry, "name", source.path);
    try {
      d.func = parse_torchgen_schema(name);
    } catch (const std::invalid_argument& e) {
      refuse("illegal-schema", source.path, line_of(entry["name"]), "malformed schema '" + name + "': " + e.what());
    }
    d.aten = field(entry, "aten", source.path);
    out.push_back(std::move(d));
  }
  return out;
}

}  // namespace dispatchctl::torchgen
