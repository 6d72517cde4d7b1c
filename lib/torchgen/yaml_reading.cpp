#include "torchgen/yaml_reading.h"

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

YAML::Node load_yaml_document(const YamlSource& source) {
  try {
    return YAML::Load(source.text);
  } catch (const YAML::ParserException& e) {
    fail_reading(source.path, e.mark.line + 1, "YAML syntax error: " + e.msg);
  }
}

YAML::Node load_entry_list(const YamlSource& source, std::string_view entry_example) {
  YAML::Node root = load_yaml_document(source);
  if (!root.IsSequence() && !root.IsNull())
    refuse_reading("malformed-entry", source.path, line_of(root),
                   "expected a YAML list of entries ('" + std::string(entry_example) + "')");
  return root;
}

}  // namespace dispatchctl::torchgen
