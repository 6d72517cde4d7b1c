#include "torchgen/yaml_reading.h"

#include <algorithm>
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

std::optional<bool> yaml_bool(const YAML::Node& node) {
  // yaml-cpp tags a quoted (non-plain) scalar "!", a plain one "?".
  if (!node.IsScalar() || node.Tag() == "!") return std::nullopt;
  static const std::set<std::string> truths = {"true", "True", "TRUE", "yes", "Yes", "YES", "on", "On", "ON"};
  static const std::set<std::string> falsehoods = {"false", "False", "FALSE", "no", "No", "NO", "off", "Off", "OFF"};
  if (truths.count(node.Scalar())) return true;
  if (falsehoods.count(node.Scalar())) return false;
  return std::nullopt;
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

// The line of a second document's `---` (0: one document). torchgen's yaml.load
// composes ONE document and raises ComposerError ("expected a single document in
// the stream") at the next one, where yaml-cpp's Load returns the first silently.
// A `---` at column 0 is always a document marker in these files (block scalars
// are indented under their entry); the first one before any content opens the
// one document.
int second_document_line(const std::string& text) {
  bool content = false, opened = false;
  int line = 0;
  for (size_t at = text.rfind("\xEF\xBB\xBF", 0) == 0 ? 3 : 0; at < text.size();) {  // past a BOM
    const size_t end = std::min(text.find('\n', at), text.size());
    const std::string_view l(text.data() + at, end - at);
    ++line;
    at = end + 1;
    if (l.rfind("---", 0) == 0 && (l.size() == 3 || l[3] == ' ' || l[3] == '\t' || l[3] == '\r')) {
      if (content || opened) return line;
      opened = true;
      continue;
    }
    const size_t first = l.find_first_not_of(" \t\r");
    if (first != std::string_view::npos && l[first] != '#') content = true;
  }
  return 0;
}

}  // namespace

YAML::Node load_yaml_document(const YamlSource& source) {
  YAML::Node root;
  try {
    root = YAML::Load(source.text);
  } catch (const YAML::ParserException& e) {
    fail_reading(source.path, e.mark.line + 1, "YAML syntax error: " + e.msg);
  }
  if (const int line = second_document_line(source.text))
    fail_reading(source.path, line, "YAML syntax error: expected a single document in the stream but found another document");
  refuse_duplicate_keys(root, source.path);
  return root;
}

YAML::Node load_entry_list(const YamlSource& source, std::string_view entry_example) {
  YAML::Node root = load_yaml_document(source);
  // A file left with comments only (or empty) is None to yaml.load, which no reader takes:
  // parse_native_yaml_struct / parse_tags_yaml_struct assert a list ("Expected 'es' to be a list,
  // but got <class 'NoneType'>"), load_derivatives and load_deprecated_signatures iterate it.
  if (root.IsNull())
    refuse_reading("malformed-entry", source.path, 1,
                   "the file holds no entries (Expected 'es' to be a list, but got None)",
                   "; write its entries ('" + std::string(entry_example) + "'), or restore the file");
  if (!root.IsSequence())
    refuse_reading("malformed-entry", source.path, line_of(root),
                   "expected a YAML list of entries ('" + std::string(entry_example) + "')");
  return root;
}

}  // namespace dispatchctl::torchgen
