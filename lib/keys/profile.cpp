#include "keys/profile.h"

#include <algorithm>
#include <set>

#include "util/errors.h"
#include "util/json_object_reader.h"
#include "util/json_parse.h"

namespace dispatchctl {

const std::vector<std::string_view> k_profile_fields = {
    "dispatchctl_release_profile", "torch_version", "reference_build", "build", "num_backends", "enum",
    "python_members_definition_order", "runtime_key_order", "alias_expansion",
    "backend_keyset_from_autograd", "autogradother_backends", "has_backend_fallback_api",
    "python_parseable_names", "backends_with_autograd_other", "autocast_key_of_backend",
    "default_tls_included", "default_tls_excluded", "override_warning_once",
    "override_warning_silent_keys", "fallthrough_mask_after_tls", "tensor_presets",
    "tensor_modifier_keys", "inference_tensor_removed", "inference_mode_tls_unincluded",
    "inference_mode_tls_excluded", "meta_fallback_error", "autograd_fallback_backward_warning",
    "schema_type_variables_in_any_namespace",
    "ambiguous_assert_at",
    "ambiguous_autogradother_hint", "fallthrough_assert_at", "inferred", "probes"};

std::string major_minor(std::string_view version) {
  size_t i = 0;
  auto digits = [&] {
    const size_t start = i;
    while (i < version.size() && version[i] >= '0' && version[i] <= '9') ++i;
    return i > start;
  };
  if (!digits() || i >= version.size() || version[i] != '.') return "";
  ++i;
  if (!digits()) return "";
  return std::string(version.substr(0, i));
}

namespace {

using json = nlohmann::ordered_json;

class ProfileReader {
 public:
  ProfileReader(const json& profile, const std::string& source, const std::string& pointer,
                ReleaseSpec& spec)
      : r_(profile, source, pointer, k_profile_fields), spec_(spec) {}

  void read(std::string_view outer_version) {
    read_version(outer_version);
    read_enum();
    spec_.runtime_key_order = names("runtime_key_order", true);
    derive_layout();
    spec_.alias_expansion = key_lists("alias_expansion", true);
    spec_.backend_keyset_from_autograd = key_lists("backend_keyset_from_autograd", true);
    spec_.autogradother_backend_keys = names("autogradother_backends", true);
    check_reported_sets();
    read_fallback_keys();
    read_behaviour();
    derive_readable_sets();
  }

 private:
  std::string_view keep(std::string s) { return spec_.keep(std::move(s)); }

  std::vector<std::string_view> names(const char* field, bool required) {
    std::vector<std::string_view> out;
    if (auto list = r_.strings(field, required))
      for (auto& s : *list) out.push_back(keep(std::move(s)));
    else if (!required)
      spec_.inferred.push_back(keep(r_.at(field)));
    return out;
  }

  NamedKeyList key_lists(const char* field, bool required) {
    NamedKeyList out;
    const json* obj = r_.object(field, required);
    if (!obj) return out;
    ObjectReader lists(*obj, r_.source(), r_.at(field), {});
    for (const auto& item : obj->items()) {
      std::vector<std::string_view> keys;
      auto list = lists.strings(item.key().c_str(), true);
      for (auto& s : *list) keys.push_back(keep(std::move(s)));
      out.emplace_back(keep(item.key()), std::move(keys));
    }
    return out;
  }

  void read_version(std::string_view outer_version) {
    const json* format = r_.get("dispatchctl_release_profile");
    if (format && (!format->is_number_integer() || format->get<long long>() != 1))
      r_.fail(r_.at("dispatchctl_release_profile"),
              "unsupported release profile format " + format->dump() + "; expected 1");
    auto own = r_.string("torch_version", outer_version.empty());
    std::string version = own ? *own : std::string(outer_version);
    if (own && !outer_version.empty() && major_minor(*own) != major_minor(outer_version))
      r_.fail(r_.at("torch_version"), "the profile is of PyTorch " + *own +
                                          " but the manifest says " + std::string(outer_version));
    spec_.torch_version = keep(version);
    spec_.version = keep(major_minor(version));
    if (spec_.version.empty())
      r_.fail(own ? r_.at("torch_version") : r_.pointer(),
              "'" + version + "' is not a PyTorch release number MAJOR.MINOR[.PATCH]");
    spec_.reference_build = keep(r_.string("reference_build", false).value_or(version));
    r_.string("build", false);  // "CPU-only", "CUDA": read by the build (lib/CMakeLists.txt), not kept
    spec_.source = keep(r_.source());
  }

  void read_enum() {
    const json* n = r_.get("num_backends");
    if (!n) r_.fail(r_.pointer(), "missing required field 'num_backends'");
    if (!n->is_number_integer() || n->get<long long>() < 1 || n->get<long long>() > 32)
      r_.fail(r_.at("num_backends"), "expected the number of backend components (1..32)");
    num_backends_ = n->get<int>();
    const json* list = r_.array("enum");
    if (!list) r_.fail(r_.pointer(), "missing required field 'enum'");
    for (size_t v = 0; v < list->size(); ++v) {
      const std::string at = r_.at("enum") + "/" + std::to_string(v);
      ObjectReader e((*list)[v], r_.source(), at, {"value", "name", "python_members"});
      const json* value = e.get("value");
      if (!value || !value->is_number_integer() || value->get<long long>() != static_cast<long long>(v))
        e.fail(at + "/value", "expected " + std::to_string(v) + ": enum entries list every value in order");
      spec_.enum_names.push_back(keep(*e.string("name", true)));
      std::vector<std::string_view> members;
      auto member_names = e.strings("python_members", false);
      for (auto& m : member_names.value_or(std::vector<std::string>{})) members.push_back(keep(std::move(m)));
      spec_.python_members.push_back(std::move(members));
    }
    if (spec_.enum_names.empty() || spec_.enum_names[0] != "Undefined")
      r_.fail(r_.at("enum"), "enum value 0 must be Undefined");
  }

  // c10's enum layout (§1.1): Undefined, functionality keys, EndOfFunctionalityKeys,
  // then per per-backend functionality a placeholder and one key per backend,
  // then the alias keys. The table rows tell which functionalities are per backend.
  void derive_layout() {
    const auto& order = spec_.runtime_key_order;
    const auto& names = spec_.enum_names;
    const size_t nb = static_cast<size_t>(num_backends_);
    const std::string order_at = r_.at("runtime_key_order");
    if (order.empty() || order[0] != "Undefined") r_.fail(order_at, "the first row must be Undefined");
    std::vector<std::vector<std::string_view>> blocks;  // runtime names per per-backend functionality
    size_t pos = 1, f = 1;
    while (pos < order.size()) {
      if (f >= names.size()) r_.fail(order_at, "more rows than the enum has functionality keys");
      FunctionalitySpec fs{names[f]};
      if (order[pos] == names[f]) {
        ++pos;
      } else {
        if (pos + nb > order.size())
          r_.fail(order_at + "/" + std::to_string(pos),
                  "'" + std::string(order[pos]) + "' is neither functionality key " +
                      std::string(names[f]) + " nor the first of its " + std::to_string(nb) +
                      " per-backend rows");
        fs.per_backend = true;
        blocks.emplace_back(order.begin() + pos, order.begin() + pos + nb);
        pos += nb;
      }
      spec_.functionalities.push_back(fs);
      ++f;
    }
    if (blocks.empty()) r_.fail(order_at, "no per-backend rows (CPU, CUDA …)");
    // Backend names: the suffixes of the first block, whose prefix is what
    // all of its names share (empty for Dense: CPU, CUDA, HIP …).
    std::string_view common = blocks[0][0];
    for (auto n : blocks[0]) {
      size_t i = 0;
      while (i < common.size() && i < n.size() && common[i] == n[i]) ++i;
      common = common.substr(0, i);
    }
    for (auto n : blocks[0]) spec_.backends.push_back(n.substr(common.size()));
    size_t value = f + 1;  // after EndOfFunctionalityKeys
    size_t block = 0;
    for (auto& fs : spec_.functionalities) {
      if (!fs.per_backend) continue;
      const auto& runtime = blocks[block++];
      const std::string_view first = runtime[0];
      if (first.size() < spec_.backends[0].size()) r_.fail(order_at, "cannot read backend names");
      fs.runtime_prefix = first.substr(0, first.size() - spec_.backends[0].size());
      if (value + nb >= names.size())
        r_.fail(r_.at("enum"), "ends inside the per-backend keys of " + std::string(fs.name));
      const std::string_view placeholder = names[value];
      if (placeholder.substr(0, fs.runtime_prefix.size()) != fs.runtime_prefix)
        r_.fail(r_.at("enum") + "/" + std::to_string(value),
                "expected the placeholder of " + std::string(fs.name) + " (" +
                    std::string(fs.runtime_prefix) + "…), got " + std::string(placeholder));
      const std::string_view word = placeholder.substr(fs.runtime_prefix.size());
      if (spec_.placeholder_word.empty()) spec_.placeholder_word = word;
      for (size_t b = 0; b < nb; ++b) {
        const std::string expected = std::string(fs.runtime_prefix) + std::string(spec_.backends[b]);
        if (runtime[b] != expected || names[value + 1 + b] != expected)
          r_.fail(r_.at("enum") + "/" + std::to_string(value + 1 + b),
                  "expected " + expected + " (table row '" + std::string(runtime[b]) +
                      "'); enum and runtime_key_order disagree");
      }
      value += nb + 1;
    }
    for (; value < names.size(); ++value) spec_.aliases.push_back(names[value]);
  }

  bool is_runtime_name(std::string_view n) const {
    return std::find(spec_.runtime_key_order.begin(), spec_.runtime_key_order.end(), n) !=
           spec_.runtime_key_order.end();
  }

  void check_reported_sets() {
    std::set<std::string_view> aliases(spec_.aliases.begin(), spec_.aliases.end());
    for (const auto& [alias, keys] : spec_.alias_expansion) {
      const std::string at = r_.at("alias_expansion") + "/" + std::string(alias);
      if (!aliases.erase(alias)) r_.fail(at, "'" + std::string(alias) + "' is not an alias key of the enum");
      for (size_t i = 0; i < keys.size(); ++i)
        if (!is_runtime_name(keys[i]))
          r_.fail(at + "/" + std::to_string(i), "'" + std::string(keys[i]) + "' is not a runtime key");
    }
    if (!aliases.empty())
      r_.fail(r_.at("alias_expansion"), "alias key " + std::string(*aliases.begin()) + " has no entry");
    // The dispatch rules (docs/dispatch-semantics.md) compute every table with
    // these alias keys; every PyTorch release since 1.13 has them.
    for (const std::string_view required : {"Autograd", "CompositeImplicitAutograd", "CompositeExplicitAutograd"})
      if (std::find(spec_.aliases.begin(), spec_.aliases.end(), required) == spec_.aliases.end())
        r_.fail(r_.at("enum"), "no alias key " + std::string(required) +
                                   ", which every PyTorch release has; export the profile again with "
                                   "'dispatchctl export'");
    for (const auto& [key, keys] : spec_.backend_keyset_from_autograd)
      for (size_t i = 0; i < keys.size(); ++i)
        if (!is_runtime_name(keys[i]) || !is_runtime_name(key))
          r_.fail(r_.at("backend_keyset_from_autograd") + "/" + std::string(key),
                  "names a key that is not a runtime key");
    for (size_t i = 0; i < spec_.autogradother_backend_keys.size(); ++i)
      if (!is_runtime_name(spec_.autogradother_backend_keys[i]))
        r_.fail(r_.at("autogradother_backends") + "/" + std::to_string(i), "not a runtime key");
  }

  void read_fallback_keys() {
    const json* obj = r_.object("has_backend_fallback_api", false);
    if (!obj) return;
    for (const auto& [key, has] : obj->items()) {
      if (!has.is_boolean())
        r_.fail(r_.at("has_backend_fallback_api") + "/" + key, "expected true or false");
      if (has.get<bool>()) spec_.backend_fallback_keys.push_back(keep(key));
    }
  }

  std::vector<std::pair<std::string_view, std::string_view>> string_map(const char* field) {
    std::vector<std::pair<std::string_view, std::string_view>> out;
    const json* obj = r_.object(field, false);
    if (!obj) {
      spec_.inferred.push_back(keep(r_.at(field)));
      return out;
    }
    ObjectReader map(*obj, r_.source(), r_.at(field), {});
    for (const auto& [k, v] : obj->items()) out.emplace_back(keep(k), keep(*map.string(k.c_str(), true)));
    return out;
  }

  bool flag(const char* field, bool if_unknown) {
    if (auto b = r_.boolean(field)) return *b;
    spec_.inferred.push_back(keep(r_.at(field)));
    return if_unknown;
  }

  std::string_view text(const char* field) {
    if (auto s = r_.string(field, false)) return keep(*s);
    spec_.inferred.push_back(keep(r_.at(field)));
    return {};
  }

  void read_presets() {
    const json* obj = r_.object("tensor_presets", false);
    if (!obj) return spec_.inferred.push_back(keep(r_.at("tensor_presets")));
    for (const auto& [name, value] : obj->items()) {
      ObjectReader p(value, r_.source(), r_.at("tensor_presets") + "/" + name, {"keys", "observed"});
      std::vector<std::string_view> keys;
      auto list = p.strings("keys", true);
      for (auto& k : *list) keys.push_back(keep(std::move(k)));
      const std::string_view n = keep(name);
      spec_.tensor_presets.emplace_back(n, std::move(keys));
      if (!p.boolean("observed").value_or(false)) spec_.inferred_presets.push_back(n);
    }
  }

  // What the release does at call time (§3.4, §5, §9). Absent fields take
  // the newest releases' behaviour and are listed as inferred.
  void read_behaviour() {
    if (auto parseable = r_.strings("python_parseable_names", false)) {
      std::string joined;
      for (const auto& n : *parseable) joined += (joined.empty() ? "" : " ") + n;
      spec_.python_parseable_names = keep(std::move(joined));
    } else {
      std::string joined;  // unknown: every printed name
      for (auto n : spec_.enum_names) joined += (joined.empty() ? "" : " ") + std::string(n);
      spec_.python_parseable_names = keep(std::move(joined));
      spec_.inferred.push_back(keep(r_.at("python_parseable_names")));
    }
    spec_.backends_with_autograd_other = names("backends_with_autograd_other", false);
    spec_.autocast_key_of_backend = string_map("autocast_key_of_backend");
    spec_.default_tls_included = names("default_tls_included", false);
    spec_.default_tls_excluded = names("default_tls_excluded", false);
    spec_.override_warning_once = flag("override_warning_once", true);
    spec_.override_warning_silent_keys = names("override_warning_silent_keys", false);
    spec_.fallthrough_mask_after_tls = flag("fallthrough_mask_after_tls", true);
    read_presets();
    spec_.tensor_modifier_keys = string_map("tensor_modifier_keys");
    spec_.inference_tensor_removed = names("inference_tensor_removed", false);
    spec_.inference_mode_tls_unincluded = names("inference_mode_tls_unincluded", false);
    spec_.inference_mode_tls_excluded = names("inference_mode_tls_excluded", false);
    spec_.meta_fallback_error = text("meta_fallback_error");
    spec_.autograd_fallback_backward_warning = text("autograd_fallback_backward_warning");
    spec_.schema_type_variables_in_any_namespace = flag("schema_type_variables_in_any_namespace", false);
    spec_.ambiguous_assert_at = text("ambiguous_assert_at");
    spec_.ambiguous_autogradother_hint = text("ambiguous_autogradother_hint");
    spec_.fallthrough_assert_at = text("fallthrough_assert_at");
    auto inferred = r_.strings("inferred", false);
    for (auto& p : inferred.value_or(std::vector<std::string>{})) spec_.inferred.push_back(keep(std::move(p)));
    if (const json* probes = r_.get("probes"); probes && !probes->is_object())
      r_.fail(r_.at("probes"), "expected an object");
    // Every key name the behaviour data uses must exist in this release.
    std::set<std::string_view> known(spec_.enum_names.begin(), spec_.enum_names.end());
    auto check = [&](const char* field, const std::vector<std::string_view>& keys) {
      for (size_t i = 0; i < keys.size(); ++i)
        if (!known.count(keys[i]))
          r_.fail(r_.at(field) + "/" + std::to_string(i),
                  std::string("'").append(keys[i]).append("' is not a key of this release"));
    };
    // Templates get the operator's name where "{op}" stands.
    for (const auto& [field, value] : {std::pair{"meta_fallback_error", spec_.meta_fallback_error},
                                       std::pair{"autograd_fallback_backward_warning",
                                                 spec_.autograd_fallback_backward_warning}})
      if (!value.empty() && value.find("{op}") == std::string_view::npos)
        r_.fail(r_.at(field), "the text has no {op} where the operator's name goes; write it as PyTorch "
                              "prints it with the operator's name replaced by {op}");
    check("default_tls_included", spec_.default_tls_included);
    check("default_tls_excluded", spec_.default_tls_excluded);
    check("inference_mode_tls_unincluded", spec_.inference_mode_tls_unincluded);
    check("inference_mode_tls_excluded", spec_.inference_mode_tls_excluded);
    check("inference_tensor_removed", spec_.inference_tensor_removed);
    for (const auto& [name, keys] : spec_.tensor_presets)
      check(("tensor_presets/" + std::string(name) + "/keys").c_str(), keys);
    for (const auto& [backend, key] : spec_.autocast_key_of_backend)
      if (!known.count(key))
        r_.fail(r_.at("autocast_key_of_backend") + "/" + std::string(backend),
                "'" + std::string(key) + "' is not a key of this release");
  }

  const std::vector<std::string_view>* expansion(std::string_view alias) const {
    for (const auto& [a, keys] : spec_.alias_expansion)
      if (a == alias) return &keys;
    return nullptr;
  }

  // The ReleaseSpec fields that earlier releases' tables spelled out, now read
  // off the reported sets (nothing below decides a table).
  void derive_readable_sets() {
    auto contains = [](const std::vector<std::string_view>* list, std::string_view k) {
      return list && std::find(list->begin(), list->end(), k) != list->end();
    };
    for (const auto& fs : spec_.functionalities) {
      const std::string first = fs.per_backend ? std::string(fs.runtime_prefix) + std::string(spec_.backends[0])
                                               : std::string(fs.name);
      if (contains(&spec_.autogradother_backend_keys, first)) spec_.autogradother_functionalities.push_back(fs.name);
      if (fs.name != "Dense" && contains(expansion("CompositeExplicitAutograd"), first) &&
          !contains(expansion("CompositeExplicitAutogradNonFunctional"), first))
        spec_.non_functional_excluded_functionalities.push_back(fs.name);
    }
    for (auto b : spec_.backends)
      if (contains(expansion("CompositeExplicitAutograd"), b) &&
          !contains(expansion("CompositeExplicitAutogradNonFunctional"), b))
        spec_.non_functional_excluded_backends.push_back(b);
    for (const auto& [key, keys] : spec_.backend_keyset_from_autograd)
      if (keys.empty()) spec_.autograd_keys_without_backend_set.push_back(key);
    spec_.functionalize_in_math_set = contains(expansion("CompositeImplicitAutograd"), "Functionalize");
  }

  ObjectReader r_;
  ReleaseSpec& spec_;
  int num_backends_ = 0;
};

}  // namespace

ReleaseSpec read_release_profile(const nlohmann::ordered_json& profile, const std::string& source,
                                 const std::string& pointer, std::string_view torch_version) {
  ReleaseSpec spec;
  ProfileReader(profile, source, pointer, spec).read(torch_version);
  return spec;
}

ReleaseSpec parse_release_profile(std::string_view text, const std::string& source) {
  return read_release_profile(parse_json_or_throw(text, source), source, "");
}

}  // namespace dispatchctl
