// The rules files of lib/torchgen/data, embedded by lib/CMakeLists.txt; each
// entry is confirmed by the ablations of docs/torchgen-rules.md §5 against the
// release's real registry.
#include "torchgen/release_rules.h"

#include <utility>

#include "util/errors.h"
#include "util/log.h"
#include "util/join.h"
#include "util/json_parse.h"
#include "util/suggest.h"

namespace dispatchctl::torchgen {
namespace {

struct EmbeddedRules {
  std::string_view file;
  std::string_view json;
};
constexpr EmbeddedRules k_embedded[] = {
#include "torchgen/release_rules_data.inc"
};

using Json = nlohmann::ordered_json;

class RulesReader {
 public:
  RulesReader(const Json& doc, const std::string& source) : doc_(doc), source_(source) {
    if (!doc_.is_object()) fail("", "must be a JSON object of rule fields");
  }

  void text(const char* name, std::string& out) {
    const Json& v = field(name);
    if (!v.is_string()) fail(name, "must be a string");
    out = v.get<std::string>();
  }
  void flag(const char* name, bool& out) {
    const Json& v = field(name);
    if (!v.is_boolean()) fail(name, "must be true or false");
    out = v.get<bool>();
  }
  void names(const char* name, std::set<std::string>& out) { out = name_set(field(name), name); }
  void names_by_backend(const char* name, std::map<std::string, std::set<std::string>>& out) {
    const Json& v = field(name);
    if (!v.is_object()) fail(name, "must map backend names to lists of keys");
    for (const auto& [backend, keys] : v.items()) out[backend] = name_set(keys, std::string(name) + "." + backend);
  }
  // After every field was read: a field nobody reads is a misspelling.
  void no_other_fields() const {
    std::vector<std::string_view> known(read_.begin(), read_.end());
    for (const auto& [name, value] : doc_.items())
      if (!read_.count(name)) fail(name, "is not a rules field" + did_you_mean(name, known));
  }

 private:
  const Json& field(const char* name) {
    read_.insert(name);
    if (!doc_.contains(name)) fail(name, "is missing (every field is required)");
    return doc_.at(name);
  }
  std::set<std::string> name_set(const Json& v, const std::string& name) const {
    if (!v.is_array()) fail(name, "must be a list of names");
    std::set<std::string> out;
    for (const Json& item : v) {
      if (!item.is_string()) fail(name, "must be a list of names");
      out.insert(item.get<std::string>());
    }
    return out;
  }
  [[noreturn]] void fail(const std::string& name, const std::string& problem) const {
    throw InputError(source_ + (name.empty() ? ": " : ": '" + name + "' ") + problem);
  }

  const Json& doc_;
  const std::string& source_;
  std::set<std::string> read_;
};

const std::vector<ReleaseRules>& all_rules() {
  static const std::vector<ReleaseRules> rules = [] {
    std::vector<ReleaseRules> r;
    for (const EmbeddedRules& e : k_embedded)
      r.push_back(read_release_rules(e.json, "lib/torchgen/data/" + std::string(e.file)));
    return r;
  }();
  return rules;
}

}  // namespace

ReleaseRules read_release_rules(std::string_view json, const std::string& source) {
  const Json doc = parse_json_or_throw(json, source);
  RulesReader in(doc, source);
  ReleaseRules r;
  in.text("version", r.version);
  in.text("first_release", r.first_release);
  in.text("last_release", r.last_release);
  in.names("always_compiled_keys", r.always_compiled_keys);
  in.names_by_backend("backend_keys", r.backend_keys);
  in.names("gen_py_ignored_keys", r.gen_py_ignored_keys);
  in.names("structured_keys", r.structured_keys);
  in.names("ufunc_keys", r.ufunc_keys);
  in.names("structured_generated_keys", r.structured_generated_keys);
  in.names("known_fields", r.known_fields);
  in.flag("tags_may_be_list", r.tags_may_be_list);
  in.flag("set_is_not_a_view", r.set_is_not_a_view);
  in.flag("cia_groups_generate_if_core", r.cia_groups_generate_if_core);
  in.flag("prefer_mutable_base", r.prefer_mutable_base);
  in.names("out_ops_not_grouped", r.out_ops_not_grouped);
  in.names("inplace_ops_not_grouped", r.inplace_ops_not_grouped);
  in.names("inplace_view_not_views", r.inplace_view_not_views);
  in.flag("functionalize_all_cia", r.functionalize_all_cia);
  in.flag("functionalize_cia_views", r.functionalize_cia_views);
  in.names("functionalize_handwritten_groups", r.functionalize_handwritten_groups);
  in.names("functionalize_handwritten_ops", r.functionalize_handwritten_ops);
  in.names("functionalize_skipped_groups", r.functionalize_skipped_groups);
  in.names("mutable_ops_not_using_functionalization", r.mutable_ops_not_using_functionalization);
  in.names("backend_select_template_ops", r.backend_select_template_ops);
  in.names("manual_autograd", r.manual_autograd);
  in.names("view_functions", r.view_functions);
  in.flag("dimname_prints_as_str", r.dimname_prints_as_str);
  in.names("schema_template_ops", r.schema_template_ops);
  in.names("view_copy_exempt_suffixes", r.view_copy_exempt_suffixes);
  in.names("view_symint_check_unsupported_types", r.view_symint_check_unsupported_types);
  in.names("view_meta_unsupported_types", r.view_meta_unsupported_types);
  in.names("view_replay_argument_types", r.view_replay_argument_types);
  in.text("view_copy_kernel_key", r.view_copy_kernel_key);
  in.flag("foreach_inplace_needs_derivatives", r.foreach_inplace_needs_derivatives);
  in.names("foreach_ops_without_differentiability_info", r.foreach_ops_without_differentiability_info);
  in.names("foreach_with_inplace_ref", r.foreach_with_inplace_ref);
  in.flag("autograd_not_implemented_known", r.autograd_not_implemented_known);
  in.names("autograd_not_implemented_exempt", r.autograd_not_implemented_exempt);
  in.names("ops_without_out_variant", r.ops_without_out_variant);
  in.names("dont_require_derivative", r.dont_require_derivative);
  in.flag("seeded_if_dropout_argument", r.seeded_if_dropout_argument);
  in.flag("const_ref_out_refused", r.const_ref_out_refused);
  in.names("native_dispatch_keys", r.native_dispatch_keys);
  in.names("python_reserved_keywords", r.python_reserved_keywords);
  in.names("python_keyword_argument_exceptions", r.python_keyword_argument_exceptions);
  in.names("python_return_types", r.python_return_types);
  std::set<std::string> skipped;  // order does not matter: any match skips
  in.names("python_skipped_bindings", skipped);
  r.python_skipped_bindings.assign(skipped.begin(), skipped.end());
  in.names("python_skipped_signatures", r.python_skipped_signatures);
  in.names("foreach_with_tensor_overload", r.foreach_with_tensor_overload);
  in.names("foreach_skip_argument_len_check", r.foreach_skip_argument_len_check);
  in.names("dont_enforce_same_tensor_impl_or_storage", r.dont_enforce_same_tensor_impl_or_storage);
  in.names("python_binding_modules", r.python_binding_modules);
  in.names("ufunc_inner_loop_keys", r.ufunc_inner_loop_keys);
  in.names("ufunc_dtypes", r.ufunc_dtypes);
  in.names_by_backend("ufunc_dtype_classes", r.ufunc_dtype_classes);
  in.names("base_types", r.base_types);
  in.no_other_fields();
  return r;
}

namespace {

// "2.14.1+cuda" -> {2, 14}; {-1, -1} if it does not start with MAJOR.MINOR.
std::pair<long, long> major_minor_numbers(std::string_view version) {
  long major = 0, minor = 0;
  size_t i = 0;
  auto number = [&](long& out) {
    const size_t start = i;
    while (i < version.size() && version[i] >= '0' && version[i] <= '9' && i - start < 6)
      out = out * 10 + (version[i++] - '0');
    return i > start;
  };
  if (!number(major) || i >= version.size() || version[i++] != '.' || !number(minor)) return {-1, -1};
  if (i < version.size() && version[i] != '.' && version[i] != '+') return {-1, -1};
  return {major, minor};
}

// How far a release is from a rules table's range: (MAJOR distance, MINOR distance).
std::pair<long, long> distance(std::pair<long, long> release, const ReleaseRules& r) {
  const auto first = major_minor_numbers(r.first_release), last = major_minor_numbers(r.last_release);
  if (release < first) return {first.first - release.first, release.first == first.first ? first.second - release.second : first.second};
  if (release > last) return {release.first - last.first, release.first == last.first ? release.second - last.second : release.second};
  return {0, 0};
}

}  // namespace

const ReleaseRules* rules_for_release(std::string_view version) {
  const auto release = major_minor_numbers(version);
  if (release.first < 0) return nullptr;
  for (const auto& r : all_rules())
    if (distance(release, r) == std::pair<long, long>{0, 0}) return &r;
  return nullptr;
}

const ReleaseRules& rules_for_any_release(std::string_view version, const std::string& where) {
  if (const ReleaseRules* exact = rules_for_release(version)) return *exact;
  const auto release = major_minor_numbers(version);
  if (release.first < 0 || all_rules().empty())
    throw InputError(where + ": no torchgen rules for PyTorch '" + std::string(version) + "'; known: " +
                     supported_rule_releases());
  const ReleaseRules* nearest = nullptr;
  for (const auto& r : all_rules())  // newest first: a tie keeps the newer
    if (!nearest || distance(release, r) < distance(release, *nearest)) nearest = &r;
  static std::set<std::string> noted;
  if (noted.insert(std::to_string(release.first) + "." + std::to_string(release.second)).second)
    log_note("{}: no torchgen rules were written for PyTorch {}; using the nearest known, {}.x "
             "(lib/torchgen/data/rules-{}.json): its predictions may differ where torchgen changed",
             where, std::to_string(release.first) + "." + std::to_string(release.second), nearest->version,
             nearest->version);
  return *nearest;
}

std::string supported_rule_releases() {
  return join(all_rules(), ", ", [](const auto& r) { return r.version + ".x"; });
}

}  // namespace dispatchctl::torchgen
