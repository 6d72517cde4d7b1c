// The release-profile reader: the built-in profiles are data, bad profiles are
// one line naming the JSON pointer, absent behaviour is marked inferred.
#include <doctest/doctest.h>

#include "keys/catalogue.h"
#include "builtin/builtin_catalogues.h"
#include "keys/profile.h"
#include "test_support.h"
#include "util/errors.h"
#include "util/json_parse.h"

using namespace dispatchctl;

namespace {
nlohmann::ordered_json keys_json(const std::string& version) {
  return parse_json_or_throw(test::read_test_data("torch-" + version + "/keys.json"), "keys.json");
}
std::string error_of(const nlohmann::ordered_json& profile) {
  return test::input_error_of([&] { (void)Catalogue::intern(read_release_profile(profile, "p.json", "", "2.14.1")); });
}
}  // namespace

TEST_CASE("profile: the layout derived from keys.json is c10's (§1)") {
  const ReleaseSpec spec = read_release_profile(keys_json("2.14.1"), "keys.json", "", "2.14.1");
  CHECK(spec.version == "2.14");
  CHECK(spec.backends.size() == 16);
  CHECK(spec.backends.back() == "Meta");
  CHECK(spec.placeholder_word == "Undefined");
  CHECK(spec.aliases.size() == 6);
  CHECK(spec.functionalities[0].name == "Dense");
  CHECK(spec.functionalities[0].per_backend);
  const ReleaseSpec old = read_release_profile(keys_json("1.13.1"), "keys.json", "", "1.13.1");
  CHECK(old.placeholder_word == "Unknown");
  CHECK(old.backends.size() == 14);
  CHECK(old.aliases.size() == 5);  // no FuncTorchBatchedDecomposition in 1.13
  // What earlier hand tables spelled out now follows from the reported sets.
  CHECK(old.autograd_keys_without_backend_set == std::vector<std::string_view>{"AutogradHIP", "AutogradVE"});
  CHECK(spec.non_functional_excluded_backends == std::vector<std::string_view>{"XLA", "Lazy"});
}

TEST_CASE("profile: a profile without behaviour data lists what is inferred") {
  const ReleaseSpec spec = read_release_profile(keys_json("2.14.1"), "keys.json", "", "2.14.1");
  auto inferred = [&](std::string_view p) {
    return std::find(spec.inferred.begin(), spec.inferred.end(), p) != spec.inferred.end();
  };
  CHECK(inferred("/fallthrough_mask_after_tls"));
  CHECK(inferred("/tensor_presets"));
  CHECK(spec.tensor_presets.empty());
  // The built-in profile marks the presets a CPU-only build cannot create.
  const ReleaseSpec& builtin = builtin_catalogue("2.14")->spec();
  CHECK(std::find(builtin.inferred_presets.begin(), builtin.inferred_presets.end(), "cuda") !=
        builtin.inferred_presets.end());
  CHECK(builtin.tensor_presets.size() == 11);
}

TEST_CASE("profile: alias sets are taken as reported, not derived") {
  auto keys = keys_json("2.14.1");
  keys["alias_expansion"]["CompositeImplicitAutograd"].push_back("Functionalize");
  const Catalogue& cat = Catalogue::intern(read_release_profile(keys, "keys.json", "", "2.14.1"));
  CHECK(cat.spec().functionalize_in_math_set);
  CHECK(cat.included_in_alias(*cat.find("Functionalize"), *cat.alias(Alias::CompositeImplicitAutograd)));
  CHECK_FALSE(builtin_catalogue("2.14")->included_in_alias(
      *cat.find("Functionalize"), *cat.alias(Alias::CompositeImplicitAutograd)));
}

TEST_CASE("profile: bad profiles are one line with the JSON pointer") {
  auto keys = keys_json("2.14.1");
  auto without = [&](const char* field) {
    auto j = keys;
    j.erase(field);
    return j;
  };
  CHECK(error_of(without("runtime_key_order")) == "p.json: /: missing required field 'runtime_key_order'");
  CHECK(error_of(without("num_backends")) == "p.json: /: missing required field 'num_backends'");
  CHECK(error_of(without("alias_expansion")) == "p.json: /: missing required field 'alias_expansion'");
  auto swapped = keys;
  swapped["enum"][50]["name"] = "XLA";
  CHECK(error_of(swapped).rfind("p.json: /enum/50: expected CUDA", 0) == 0);
  auto unknown_key = keys;
  unknown_key["alias_expansion"]["Autograd"].push_back("AutogradFoo");
  CHECK(error_of(unknown_key) == "p.json: /alias_expansion/Autograd/18: 'AutogradFoo' is not a runtime key");
  auto missing_alias = keys;
  missing_alias["alias_expansion"].erase("Autograd");
  CHECK(error_of(missing_alias) == "p.json: /alias_expansion: alias key Autograd has no entry");
  auto bad_tls = keys;
  bad_tls["default_tls_included"] = {"BackendSelect", "NoSuchKey"};
  CHECK(error_of(bad_tls) == "p.json: /default_tls_included/1: 'NoSuchKey' is not a key of this release");
  auto no_op = keys;
  no_op["autograd_fallback_backward_warning"] = "an autograd kernel was not registered";
  CHECK(error_of(no_op).rfind("p.json: /autograd_fallback_backward_warning: the text has no {op}", 0) == 0);
  auto typo = keys;
  typo["num_backend"] = 16;
  CHECK(error_of(typo).rfind("p.json: /num_backend: unknown field 'num_backend'; did you mean", 0) == 0);
}

TEST_CASE("profile: versions") {
  CHECK(major_minor("2.15.0a0+git1234") == "2.15");
  CHECK(major_minor("1.13") == "1.13");
  CHECK(major_minor("banana").empty());
  CHECK(builtin_catalogue("2.14.0+cpu") == builtin_catalogue("2.14"));
  CHECK(builtin_catalogue("2.140") == nullptr);
}

TEST_CASE("profile: inferred pointers name fields and parts of them, with or without the manifest's prefix") {
  auto keys = keys_json("2.14.1");
  keys["tensor_presets"] = {{"cpu", {{"keys", {"CPU"}}, {"observed", true}}},
                            {"cuda", {{"keys", {"CUDA"}}, {"observed", false}}}};
  keys["tensor_modifier_keys"] = {{"conj", "Conjugate"}, {"neg", "Negative"}};
  keys["inferred"] = {"/release_profile/tensor_modifier_keys/neg", "/autocast_key_of_backend"};
  const ReleaseSpec spec = read_release_profile(keys, "m.json", "/release_profile", "2.14.1");
  CHECK(spec.preset_inferred("cuda"));
  CHECK_FALSE(spec.preset_inferred("cpu"));
  CHECK(spec.modifier_inferred("neg"));
  CHECK_FALSE(spec.modifier_inferred("conj"));
  CHECK(spec.is_inferred("autocast_key_of_backend"));
  CHECK_FALSE(spec.is_inferred("key_of_backend"));  // a whole field name, not a suffix of one
}
