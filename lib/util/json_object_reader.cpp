#include "util/json_object_reader.h"

#include "util/errors.h"
#include "util/join.h"
#include "util/suggest.h"

namespace dispatchctl {

std::string json_type_name(const nlohmann::ordered_json& v) {
  using json = nlohmann::ordered_json;
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

namespace {
}  // namespace

ObjectReader::ObjectReader(const json& object, std::string source, std::string pointer,
                           std::vector<std::string_view> allowed)
    : object_(object), source_(std::move(source)), pointer_(std::move(pointer)) {
  if (!object.is_object()) fail(pointer_, "expected an object, got " + json_type_name(object));
  if (allowed.empty()) return;
  for (const auto& [name, value] : object.items()) {
    bool known = false;
    for (auto a : allowed) known = known || a == name;
    if (known) continue;
    const std::string suggestion = did_you_mean(name, allowed);
    fail(pointer_ + "/" + name, "unknown field '" + name + "'" + suggestion +
                                    (suggestion.empty() ? "; allowed: " + join(allowed) : ""));
  }
}

void ObjectReader::fail(const std::string& pointer, const std::string& what) const {
  throw InputError({source_, pointer.empty() ? "/" : pointer}, what);
}

const ObjectReader::json* ObjectReader::get(const char* name) const {
  auto it = object_.find(name);
  return it == object_.end() ? nullptr : &*it;
}

std::optional<std::string> ObjectReader::string(const char* name, bool required) const {
  const json* v = get(name);
  if (!v) {
    if (required) fail(pointer_, "missing required field '" + std::string(name) + "'");
    return std::nullopt;
  }
  if (!v->is_string()) fail(at(name), "expected a string, got " + json_type_name(*v));
  return v->get<std::string>();
}

std::optional<bool> ObjectReader::boolean(const char* name) const {
  const json* v = get(name);
  if (!v) return std::nullopt;
  if (!v->is_boolean()) fail(at(name), "expected true or false, got " + json_type_name(*v));
  return v->get<bool>();
}

const ObjectReader::json* ObjectReader::array(const char* name) const {
  const json* v = get(name);
  if (v && !v->is_array()) fail(at(name), "expected an array, got " + json_type_name(*v));
  return v;
}

const ObjectReader::json* ObjectReader::object(const char* name, bool required) const {
  const json* v = get(name);
  if (!v && required) fail(pointer_, "missing required field '" + std::string(name) + "'");
  if (v && !v->is_object()) fail(at(name), "expected an object, got " + json_type_name(*v));
  return v;
}

std::optional<std::vector<std::string>> ObjectReader::strings(const char* name, bool required) const {
  const json* v = array(name);
  if (!v) {
    if (required) fail(pointer_, "missing required field '" + std::string(name) + "'");
    return std::nullopt;
  }
  std::vector<std::string> out;
  for (size_t i = 0; i < v->size(); ++i) {
    if (!(*v)[i].is_string())
      fail(at(name) + "/" + std::to_string(i), "expected a string, got " + json_type_name((*v)[i]));
    out.push_back((*v)[i].get<std::string>());
  }
  return out;
}

}  // namespace dispatchctl
