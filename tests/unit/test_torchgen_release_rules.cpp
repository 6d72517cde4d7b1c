// torchgen's per-release rules are data (lib/torchgen/data/rules-*.json): the
// one reader takes every field, refuses a missing, mistyped or misspelled one
// with the file and field named, and every built-in release has its rules.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "builtin/builtin.h"
#include "torchgen/release_rules.h"
#include "util/errors.h"
#include "util/file_io.h"

using namespace dispatchctl;
using torchgen::read_release_rules;

namespace {
std::string rules_file(const std::string& version) {
  return read_input_file(std::string(DISPATCHCTL_SOURCE_DIR) + "/lib/torchgen/data/rules-" + version + ".json");
}
}  // namespace

TEST_CASE("torchgen rules: every built-in release has rules, its own or the nearest, newest first") {
  for (const BuiltinRegistry& b : builtin_registries()) {
    CAPTURE(b.version);
    const torchgen::ReleaseRules& rules = torchgen::rules_for_any_release(b.version, "test");
    if (torchgen::rules_for_release(b.version)) CHECK(b.version.rfind(rules.version + ".", 0) == 0);
  }
  CHECK(torchgen::rules_for_release("2.14.1+cuda") == torchgen::rules_for_release("2.14.1"));
  CHECK(torchgen::supported_rule_releases().rfind(torchgen::rules_for_release(k_default_release)->version + ".x", 0) ==
        0);
}

TEST_CASE("torchgen rules: the file read is the table torchgen uses") {
  const torchgen::ReleaseRules read = read_release_rules(rules_file("1.13"), "rules-1.13.json");
  const torchgen::ReleaseRules& used = *torchgen::rules_for_release("1.13.1");
  CHECK(read.version == "1.13");
  CHECK(read.backend_keys == used.backend_keys);
  CHECK(read.view_functions == used.view_functions);
  CHECK(read.dimname_prints_as_str);
  CHECK(read.backend_select_template_ops == std::set<std::string>{"_pin_memory", "is_pinned"});
  CHECK_FALSE(torchgen::rules_for_release("2.14.1")->dimname_prints_as_str);
}

TEST_CASE("torchgen rules: a missing, mistyped or misspelled field is refused naming it") {
  nlohmann::ordered_json doc = nlohmann::ordered_json::parse(rules_file("2.14"));
  auto without = doc;
  without.erase("ufunc_keys");
  CHECK_THROWS_WITH_AS(read_release_rules(without.dump(), "r.json"),
                       "r.json: 'ufunc_keys' is missing (every field is required)", InputError);
  auto mistyped = doc;
  mistyped["prefer_mutable_base"] = "yes";
  CHECK_THROWS_WITH_AS(read_release_rules(mistyped.dump(), "r.json"),
                       "r.json: 'prefer_mutable_base' must be true or false", InputError);
  auto misspelled = doc;
  misspelled["ufunc_key"] = nlohmann::ordered_json::array();
  CHECK_THROWS_WITH_AS(read_release_rules(misspelled.dump(), "r.json"),
                       "r.json: 'ufunc_key' is not a rules field; did you mean 'ufunc_keys'?", InputError);
  auto bad_backend = doc;
  bad_backend["backend_keys"]["CPU"] = "CPU";
  CHECK_THROWS_WITH_AS(read_release_rules(bad_backend.dump(), "r.json"),
                       "r.json: 'backend_keys.CPU' must be a list of names", InputError);
  CHECK_THROWS_AS(read_release_rules("{\"version\": ", "r.json"), InputError);
}

// Issue 23: torchgen for any release. A release no rules file was written for
// uses the nearest range (by MAJOR, then MINOR; the newer on a tie).
TEST_CASE("torchgen rules: a release without rules takes the nearest known ones") {
  CHECK(torchgen::rules_for_release("2.9.0") == nullptr);
  CHECK(torchgen::rules_for_any_release("2.9.0", "test").version == "2.6");
  CHECK(torchgen::rules_for_any_release("2.11.0+cuda", "test").version == "2.14");  // 3 from 2.14, 5 from 2.6
  CHECK(torchgen::rules_for_any_release("2.6.0+cuda", "test").version == "2.6");
  CHECK(torchgen::rules_for_any_release("2.10", "test").version == "2.14");  // a tie keeps the newer
  CHECK(torchgen::rules_for_any_release("1.9.1", "test").version == "1.13");
  CHECK(torchgen::rules_for_any_release("1.20", "test").version == "1.13");
  CHECK(torchgen::rules_for_any_release("3.1.0", "test").version == "2.14");
  CHECK(torchgen::rules_for_any_release("0.4.1", "test").version == "1.13");
  CHECK_THROWS_WITH_AS(torchgen::rules_for_any_release("main", "x.yaml"),
                       doctest::Contains("x.yaml: no torchgen rules for PyTorch 'main'"), InputError);
}
