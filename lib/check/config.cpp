#include "check/check.h"

#include "util/errors.h"
#include "util/file_io.h"
#include "util/json_parse.h"
#include "util/suggest.h"

namespace dispatchctl {
namespace {

using json = nlohmann::ordered_json;

std::vector<std::string> string_list(const json& v, const std::string& where) {
  if (!v.is_array()) throw InputError(where + ": expected an array of strings");
  std::vector<std::string> out;
  for (size_t i = 0; i < v.size(); ++i) {
    if (!v[i].is_string()) throw InputError(where + "/" + std::to_string(i) + ": expected a string");
    out.push_back(v[i].get<std::string>());
  }
  return out;
}

}  // namespace

CheckOptions read_check_config(std::string_view text, const std::string& source) {
  const json doc = parse_json_or_throw(text, source);
  if (!doc.is_object()) throw InputError(source + ": expected a JSON object");
  CheckOptions options;
  const std::vector<std::string_view> fields = {"dispatchctl_check", "rules", "require", "ops",
                                                "warnings_as_errors", "include_base", "description"};
  for (const auto& [name, value] : doc.items()) {
    const std::string where = source + ": /" + name;
    if (name == "dispatchctl_check") {
      if (!value.is_number_integer() || value.get<long long>() != 1)
        throw InputError(where + ": unsupported config format " + value.dump() + "; expected 1");
    } else if (name == "rules") {
      if (!value.is_object()) throw InputError(where + ": expected an object {\"RULE-ID\": \"off|note|warning|error\"}");
      for (const auto& [id, level] : value.items()) {
        if (!find_rule(id)) {
          std::vector<std::string_view> ids;
          for (const auto& r : check_rules()) ids.push_back(r.id);
          throw InputError(where + "/" + id + ": unknown rule '" + id + "'" + did_you_mean(id, ids) +
                           " (see 'dispatchctl check --list-checks')");
        }
        const std::string word = level.is_string() ? level.get<std::string>() : level.dump();
        if (word == "off") options.severities[id] = std::nullopt;
        else if (auto s = parse_severity(word)) options.severities[id] = *s;
        else throw InputError(where + "/" + id + ": '" + word + "' is not off, note, warning or error");
      }
    } else if (name == "require") {
      options.require = string_list(value, where);
    } else if (name == "ops") {
      options.op_patterns = string_list(value, where);
    } else if (name == "warnings_as_errors") {
      if (!value.is_boolean()) throw InputError(where + ": expected true or false");
      options.warnings_as_errors = value.get<bool>();
    } else if (name == "include_base") {
      if (!value.is_boolean()) throw InputError(where + ": expected true or false");
      options.include_base = value.get<bool>();
    } else if (name != "description") {
      throw InputError(where + ": unknown field '" + name + "'" + did_you_mean(name, fields));
    }
  }
  if (!doc.contains("dispatchctl_check"))
    throw InputError(source + ": /: missing required field 'dispatchctl_check' (use 1)");
  return options;
}

CheckOptions check_options(const CheckFlags& flags) {
  CheckOptions options =
      flags.config.empty() ? CheckOptions{} : read_check_config(read_input_file(flags.config), flags.config);
  if (flags.show_existing && flags.base.empty())
    throw InputError("--show-existing needs --base SOURCE (the sources before the change)");
  options.require.insert(options.require.end(), flags.require.begin(), flags.require.end());
  options.op_patterns.insert(options.op_patterns.end(), flags.op_patterns.begin(), flags.op_patterns.end());
  options.ops_from = flags.ops_from;
  options.opset = flags.opset;
  options.warnings_as_errors = options.warnings_as_errors || flags.warnings_as_errors;
  options.include_base = options.include_base || flags.include_base;
  options.base = flags.base;
  options.show_existing = flags.show_existing;
  options.layering = flags.layering;
  return options;
}

}  // namespace dispatchctl
