#include "registry/manifest_schemas.h"

#include "keys/catalogue.h"
#include "registry/schema_parser.h"
#include "util/errors.h"
#include "util/json_locate.h"

namespace dispatchctl {
namespace {

// Whether the release's schema parser takes lower-case type variables in
// every namespace (release profile data, README "Release profiles"): the
// manifest's own profile says it (exports probe it), else the built-in profile
// of its MAJOR.MINOR, else no, PyTorch's rule since 2.1. The profile reader
// checks the field's type when it builds the manifest's catalogue.
bool typevars_everywhere(const nlohmann::ordered_json& doc, std::string_view torch_version) {
  if (const auto profile = doc.find("release_profile"); profile != doc.end() && profile->is_object()) {
    const auto field = profile->find("schema_type_variables_in_any_namespace");
    if (field != profile->end() && field->is_boolean()) return field->get<bool>();
  }
  const Catalogue* builtin = Catalogue::for_version(torch_version);
  return builtin && builtin->spec().schema_type_variables_in_any_namespace;
}

// "FILE:LINE:COL" of byte `offset` of the (decoded) string value at `pointer`.
std::string place(std::string_view text, const std::string& source, const std::string& pointer, size_t offset) {
  const auto pos = JsonLocator(text).locate(pointer);
  if (!pos) return source;
  size_t at = 0;
  for (int line = 1; line < pos->line && at < text.size(); ++line) at = text.find('\n', at) + 1;
  at += static_cast<size_t>(pos->column);  // just after the opening quote
  size_t raw = 0;
  for (size_t decoded = 0; decoded < offset && at + raw < text.size() && text[at + raw] != '"'; ++decoded)
    raw += text[at + raw] != '\\' ? 1 : text[at + raw + 1] == 'u' ? 6 : 2;
  return source + ":" + std::to_string(pos->line) + ":" + std::to_string(pos->column + 1 + static_cast<int>(raw));
}

}  // namespace

void check_manifest_schemas(const nlohmann::ordered_json& doc, std::string_view text, const std::string& source,
                            std::string_view torch_version) {
  const auto operators = doc.find("operators");
  if (operators == doc.end() || !operators->is_array()) return;  // apply_manifest says what is wrong
  const SchemaParseOptions options{typevars_everywhere(doc, torch_version)};
  for (size_t i = 0; i < operators->size(); ++i) {
    const auto& op = (*operators)[i];
    if (!op.is_object() || !op.contains("schema") || !op["schema"].is_string()) continue;
    const std::string pointer = "/operators/" + std::to_string(i) + "/schema";
    const std::string schema_text = op["schema"].get<std::string>();
    auto parsed = parse_function_schema(schema_text, options);
    if (const auto* error = std::get_if<SchemaError>(&parsed)) {
      throw InputError(place(text, source, pointer, error->offset) + ": " + pointer + ": " + error->message +
                       (error->fix.empty() ? "" : "; " + error->fix));
    }
    const auto& schema = std::get<FunctionSchema>(parsed);
    const auto name = op.find("name");
    if (name == op.end() || !name->is_string() || name->get<std::string>() == schema.full_name()) continue;
    throw InputError(place(text, source, pointer, 0) + ": " + pointer + ": the schema defines '" + schema.full_name() +
                     "' but \"name\" is '" + name->get<std::string>() + "'; make them the same operator");
  }
}

}  // namespace dispatchctl
