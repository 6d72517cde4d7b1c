#include "registry/manifest_schemas.h"

#include "keys/catalogue.h"
#include "registry/schema_parser.h"
#include "util/errors.h"
#include "util/json_locate.h"

namespace dispatchctl {
namespace {

// FILE:LINE:COL of byte `offset` of the (decoded) string value at `pointer`.
InputLocation place(std::string_view text, const std::string& source, const std::string& pointer, size_t offset) {
  const auto pos = JsonLocator(text).locate(pointer);
  if (!pos) return {source, pointer};
  size_t at = 0;
  for (int line = 1; line < pos->line && at < text.size(); ++line) at = text.find('\n', at) + 1;
  at += static_cast<size_t>(pos->column);  // just after the opening quote
  size_t raw = 0;
  for (size_t decoded = 0; decoded < offset && at + raw < text.size() && text[at + raw] != '"'; ++decoded)
    raw += text[at + raw] != '\\' ? 1 : text[at + raw + 1] == 'u' ? 6 : 2;
  return {source, pointer, pos->line, pos->column + 1 + static_cast<int>(raw)};
}

}  // namespace

void check_manifest_schema(const ManifestOperator& op, size_t index, const std::function<std::string()>& text,
                           const std::string& source, const Catalogue& catalogue) {
  if (!op.schema) return;
  // Whether lower-case type variables are taken in every namespace is release
  // profile data (the manifest's own profile, its base's, or the built-in one
  // of its MAJOR.MINOR: whatever the manifest's catalogue was built from).
  const SchemaParseOptions options{catalogue.spec().schema_type_variables_in_any_namespace};
  auto parsed = parse_function_schema(*op.schema, options);
  if (const auto* error = std::get_if<SchemaError>(&parsed)) {
    const std::string pointer = "/operators/" + std::to_string(index) + "/schema";
    throw InputError(place(text(), source, pointer, error->offset),
                     error->message + (error->fix.empty() ? "" : "; " + error->fix));
  }
  const auto& schema = std::get<FunctionSchema>(parsed);
  if (!op.name_is_string || op.name == schema.full_name()) return;
  const std::string pointer = "/operators/" + std::to_string(index) + "/schema";
  throw InputError(place(text(), source, pointer, 0), "the schema defines '" + schema.full_name() +
                   "' but \"name\" is '" + op.name + "'; make them the same operator");
}

void check_manifest_schemas(const std::deque<ManifestOperator>& operators,
                            const std::function<std::string()>& text, const std::string& source,
                            const Catalogue& catalogue) {
  size_t index = 0;
  for (const auto& op : operators) check_manifest_schema(op, index++, text, source, catalogue);
}

}  // namespace dispatchctl
