#include "registry/schema_text.h"

namespace dispatchctl {
namespace {

std::string joined(const std::vector<SchemaType>& types, const BaseNameText& base_name) {
  std::string out;
  for (size_t i = 0; i < types.size(); ++i) out += (i ? ", " : "") + type_text(types[i], std::nullopt, "", base_name);
  return out;
}

std::string annotated(std::string text, const std::string& alias) {
  return alias.empty() ? text : text + "(" + alias + ")";
}

}  // namespace

std::string type_text(const SchemaType& type, std::optional<int> size, const std::string& alias,
                      const BaseNameText& base_name) {
  using Kind = SchemaType::Kind;
  switch (type.kind) {
    case Kind::Named: return annotated(base_name ? base_name(type.name) : type.name, alias);
    case Kind::TypeVar:
    case Kind::CustomClass: return annotated(type.name, alias);
    case Kind::Optional: return type_text(type.contained[0], size, alias, base_name) + "?";
    case Kind::List:
      return type_text(type.contained[0], std::nullopt, alias, base_name) + "[" +
             (size ? std::to_string(*size) : "") + "]";
    case Kind::Tuple: return annotated("(" + joined(type.contained, base_name) + ")", alias);
    case Kind::Dict: return annotated("Dict(" + joined(type.contained, base_name) + ")", alias);
    case Kind::Union: return annotated("Union(" + joined(type.contained, base_name) + ")", alias);
    case Kind::Future: return annotated("Future(" + joined(type.contained, base_name) + ")", alias);
    case Kind::Await: return annotated("Await(" + joined(type.contained, base_name) + ")", alias);
    case Kind::RRef: return annotated("RRef(" + joined(type.contained, base_name) + ")", alias);
  }
  return type.name;
}

std::string type_text(const SchemaArgument& a) { return type_text(a.type, a.size); }

std::string annotated_type_text(const SchemaArgument& a, const BaseNameText& base_name) {
  return type_text(a.type, a.size, a.alias, base_name);
}

}  // namespace dispatchctl
