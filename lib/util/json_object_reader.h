// Reading one JSON object of an input document against the fields its format
// allows, reporting every problem as "SOURCE: /json/pointer: what; fix".
// Shared by the manifest and the release-profile readers.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dispatchctl {

// "a string", "an array" …: for "expected X, got Y" messages.
std::string json_type_name(const nlohmann::ordered_json& v);

class ObjectReader {
 public:
  using json = nlohmann::ordered_json;
  // An empty `allowed` accepts any field name.
  ObjectReader(const json& object, std::string source, std::string pointer,
               std::vector<std::string_view> allowed);

  [[noreturn]] void fail(const std::string& pointer, const std::string& what) const;

  const json* get(const char* name) const;
  std::string at(const char* name) const { return pointer_ + "/" + name; }
  std::optional<std::string> string(const char* name, bool required) const;
  std::optional<bool> boolean(const char* name) const;
  const json* array(const char* name) const;
  // Required when `required`; else nullptr when absent.
  const json* object(const char* name, bool required) const;
  // An array of strings (nullopt when absent and not required).
  std::optional<std::vector<std::string>> strings(const char* name, bool required) const;

  const std::string& pointer() const { return pointer_; }
  const std::string& source() const { return source_; }

 private:
  const json& object_;
  std::string source_;
  std::string pointer_;
};

}  // namespace dispatchctl
