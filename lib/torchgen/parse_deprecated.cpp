#include <yaml-cpp/yaml.h>

#include <stdexcept>

#include "torchgen/deprecated.h"
#include "torchgen/refusals.h"
#include "torchgen/yaml_reading.h"
#include "util/errors.h"

namespace dispatchctl::torchgen {
namespace {

// deprecated["name"] / deprecated["aten"]: a KeyError (or a TypeError for a
// value that is no string) ends gen_python_functions there.
std::string field(const YAML::Node& entry, const char* name, const std::string& file) {
  const YAML::Node value = entry[name];
  if (!value || !value.IsScalar())
    refuse_reading("malformed-entry", file, line_of(value ? value : entry),
           std::string("a deprecated.yaml entry needs `") + name + ":` as a string (load_deprecated_signatures)");
  return value.Scalar();
}

}  // namespace

std::vector<DeprecatedSignature> parse_deprecated_yaml(const YamlSource& source) {
  const YAML::Node root = load_entry_list(source, "- name: ...");
  std::vector<DeprecatedSignature> out;
  for (const auto& entry : root) {
    if (!entry.IsMap()) refuse_reading("malformed-entry", source.path, line_of(entry), "expected an entry '- name: SCHEMA'");
    DeprecatedSignature d;
    d.loc = {source.path, line_of(entry)};
    const std::string name = field(entry, "name", source.path);
    try {
      d.func = parse_torchgen_schema(name);
    } catch (const std::invalid_argument& e) {
      refuse_reading("illegal-schema", source.path, line_of(entry["name"]), "malformed schema '" + name + "': " + e.what());
    }
    d.aten = field(entry, "aten", source.path);
    out.push_back(std::move(d));
  }
  return out;
}

}  // namespace dispatchctl::torchgen
