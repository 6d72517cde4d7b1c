// A manifest's "generated_calls" section (docs/manifest-format.md): read by
// the manifest reader onto the kernels it names, written by its writer, and
// added to a file without touching its entries (what `dispatchctl export`
// does with the calls it derives); and InputError's place kept apart from
// what is wrong, which check's findings read.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include <algorithm>

#include "builtin/builtin_catalogues.h"
#include "check/check.h"
#include "query/predicates.h"
#include "registry/manifest.h"
#include "registry/manifest_generated_calls.h"
#include "test_support.h"
#include "util/errors.h"

namespace dispatchctl {
namespace {

const std::string k_manifest = R"json({
 "dispatchctl_manifest": 1,
 "torch_version": "2.14.1",
 "operators": [
  {"name": "my::f.out", "schema": "my::f.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", "kernels": [
    {"key": "CPU", "kernel": "f_out_cpu"}]},
  {"name": "my::f", "schema": "my::f(Tensor self) -> Tensor", "kernels": [
    {"key": "CPU", "kernel": "f_cpu"},
    {"key": "Meta", "kernel": "f_meta"},
    {"key": "CompositeExplicitAutogradNonFunctional", "kernel": "f_generated"}]}
 ]
}
)json";

std::unique_ptr<Registry> loaded(const std::string& text, const std::string& source = "calls.json") {
  auto registry = std::make_unique<Registry>(*builtin_releases().find("2.14.1"), "2.14.1");
  apply_manifest(*registry, read_manifest(text, source, {builtin_releases()}));
  return registry;
}

const GeneratedCall* call_of(const Registry& registry, const std::string& op, size_t kernel) {
  return registry.generated_call(registry.find(op)->registrations[kernel]);
}

}  // namespace

TEST_CASE("generated_calls: the section is written, added as the last field, and read back onto its kernels") {
  auto registry = loaded(k_manifest);
  CHECK(call_of(*registry, "my::f", 2) == nullptr);
  registry->record_generated_call(registry->find("my::f")->registrations[2], "my::f.out",
                                  GeneratedCallKind::StructuredOut, Registry::Strings::Copy);
  const nlohmann::ordered_json section = generated_calls_section(*registry, "calls.json");
  CHECK(section.dump() == R"([{"operator":1,"kernel":2,"op":"my::f.out","kind":"structured_out"}])");
  const std::string with = with_generated_calls_section(k_manifest, section, "calls.json");
  // The entries are left as written: the text before the last field is the file's own.
  CHECK(with.substr(0, k_manifest.rfind(" ]") + 2) == k_manifest.substr(0, k_manifest.rfind(" ]") + 2));
  const auto reread = loaded(with);
  const GeneratedCall* call = call_of(*reread, "my::f", 2);
  REQUIRE(call != nullptr);
  CHECK(std::string_view(call->callee) == "my::f.out");
  CHECK(call->kind == GeneratedCallKind::StructuredOut);
  CHECK(call_of(*reread, "my::f", 0) == nullptr);
  CHECK(call_of(*reread, "my::f", 1) == nullptr);
  CHECK(call_of(*reread, "my::f.out", 0) == nullptr);
  // And written again from the registry read back: the same section.
  CHECK(generated_calls_section(*reread, "calls.json") == section);
}

TEST_CASE("generated_calls: a malformed entry is one line naming its place") {
  std::string bad = k_manifest;
  bad.insert(bad.rfind(" ]") + 2, R"(, "generated_calls": [{"operator": 1, "kernel": -1, "op": "my::f.out", "kind": "structured_out"}])");
  CHECK(test::input_error_of([&] { loaded(bad); }).rfind("calls.json: /generated_calls/0/kernel: expected the ordinal", 0) ==
        0);
  bad = k_manifest;
  bad.insert(bad.rfind(" ]") + 2, R"(, "generated_calls": [{"operator": 1, "kernel": 2, "op": "my::f.out", "kind": "structured"}])");
  CHECK(test::input_error_of([&] { loaded(bad); }).find("/generated_calls/0/kind: 'structured' is not a kind") !=
        std::string::npos);
  CHECK(test::input_error_of([&] { with_generated_calls_section("[1]", nlohmann::ordered_json::array(), "x.json"); })
            .rfind("x.json: does not end as a manifest's JSON object does", 0) == 0);
}

TEST_CASE("InputError: the place apart from what is wrong, rendered as one line") {
  const InputError both({"m.json", "/operators/3/schema", 7, 12}, "unknown type 'Tensr'");
  CHECK(std::string(both.what()) == "m.json:7:12: /operators/3/schema: unknown type 'Tensr'");
  REQUIRE(both.location());
  CHECK(both.location()->line == 7);
  CHECK(both.location()->column == 12);
  CHECK(both.location()->pointer == "/operators/3/schema");
  CHECK(both.detail() == "unknown type 'Tensr'");
  CHECK(std::string(InputError({"m.json", "/a"}, "bad").what()) == "m.json: /a: bad");
  CHECK(std::string(InputError({"m.json"}, "bad").what()) == "m.json: bad");
  const InputError plain("--key Mta: not a key");
  CHECK_FALSE(plain.location());
  CHECK(plain.detail() == "--key Mta: not a key");
}

TEST_CASE("InputError: check's load-error finding takes the loader's place, not its text") {
  const std::string dir = std::string(DISPATCHCTL_SOURCE_DIR) + "/tests/manifests/check/";
  // A JSON syntax error: line and column.
  CheckResult r = run_check({dir + "invalid/syntax.json"}, {});
  REQUIRE(r.findings.size() == 1);
  CHECK(r.findings[0].location.line == 5);
  CHECK(r.findings[0].location.column > 0);
  CHECK(r.findings[0].location.pointer.empty());
  CHECK(r.findings[0].message.rfind("invalid JSON: ", 0) == 0);
  // An unknown key: the kernel's pointer (the line is found from it).
  r = run_check({dir + "invalid/bad_key.json"}, {});
  const auto load_error = std::find_if(r.findings.begin(), r.findings.end(),
                                       [](const Finding& f) { return f.rule == "load-error"; });
  REQUIRE(load_error != r.findings.end());
  CHECK(load_error->location.pointer == "/operators/0/kernels/1/key");
  CHECK(load_error->location.line == 10);
  CHECK(load_error->message.rfind("'Meat' is not a dispatch key", 0) == 0);
}

TEST_CASE("query: counting outcomes without a key is refused in the library, not only by the app") {
  Query q;
  q.count_outcomes = true;
  const auto registry = loaded(k_manifest);
  CHECK(test::input_error_of([&] { query_outcome_counts(*registry, q); }).find("add --key K") != std::string::npos);
}

}  // namespace dispatchctl
