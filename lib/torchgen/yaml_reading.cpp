#include "torchgen/yaml_reading.h"

#include <set>

#include "torchgen/refusals.h"
#include "torchgen/refusals_detail.h"
#include "util/errors.h"

namespace dispatchctl::torchgen {

void fail_reading(const std::string& file, int line, const std::string& message) {
  throw InputError(file + ":" + std::to_string(line) + ": " + message);
}

void refuse_reading(std::string_view kind, const std::string& file, int line, const std::string& reason,
                    const std::string& suggestion, const std::string& op) {
  std::string fix = suggestion.rfind("; ", 0) == 0 ? suggestion.substr(2) : std::string(kind_fix(kind));
  throw TorchgenRefusal(Refusal{{file, line}, op, std::string(kind), reason, std::move(fix)});
}

namespace {

// yaml_utils.py YamlLoader.construct_mapping, the loader of every reader of
// torchgen's YAML (gen.py, load_derivatives, the Python bindings'
// deprecated.yaml, gen_backend_stubs): a mapping that names a key twice is
// refused, where PyYAML alone takes the last value and yaml-cpp keeps both.
void refuse_duplicate_keys(const YAML::Node& node, const std::string& file) {
  if (node.IsSequence())
    for (const auto& item : node) refuse_duplicate_keys(item, file);
  if (!node.IsMap()) return;
  std::set<std::string> seen;
  for (const auto& pair : node) {
    if (pair.first.IsScalar() && !seen.insert(pair.first.Scalar()).second)
      refuse_reading("duplicate-yaml-key", file, line_of(pair.first),
                     "Found a duplicate key in the yaml. key=" + pair.first.Scalar() + " (the mapping of line " +
                         std::to_string(line_of(node)) + ")");
    refuse_duplicate_keys(pair.second, file);
  }
}

}  // namespace

YAML::Node load_yaml_document(const YamlSource& source) {
  YAML::Node root;
  try {
    root = YAML::Load(source.text);
  } catch (const YAML::ParserException& e) {
    fail_reading(source.path, e.mark.line + 1, "YAML syntax error: " + e.msg);
  }
  refuse_duplicate_keys(root, source.path);
  return root;
}

YAML::Node load_entry_list(const YamlSource& source, std::string_view entry_example) {
  YAML::Node root = load_yaml_document(source);
  if (!root.IsSequence() && !root.IsNull())
    refuse_reading("malformed-entry", source.path, line_of(root),
                   "expected a YAML list of entries ('" + std::string(entry_example) + "')");
  return root;
}

}  // namespace dispatchctl::torchgen
