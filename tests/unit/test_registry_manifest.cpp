// Loading manifests: layering, and one clear line for every kind of bad input
// (docs/manifest-format.md; PyTorch's own refusals from docs/dispatch-semantics.md §3.1, §9).
#include <doctest/doctest.h>

#include "registry/manifest.h"
#include "load/load_registry.h"
#include "test_support.h"

using namespace dispatchctl;
using test::load_error;

namespace {


const std::string k_head = R"J({"dispatchctl_manifest": 1, "torch_version": "2.14.1", )J";

}  // namespace

TEST_CASE("manifest: JSON syntax errors name file:line:column") {
  const std::string error = load_error("{\n  \"dispatchctl_manifest\": 1,\n  \"torch_version\": 2.14.1\n}");
  CHECK(error.rfind("test.json:3:", 0) == 0);
  CHECK(error.find("invalid JSON") != std::string::npos);
  CHECK(load_error("").find("empty file") != std::string::npos);
  const std::string duplicate = load_error(R"J({"a": 1, "a": 2})J");
  CHECK(duplicate.find("duplicate key") != std::string::npos);
  CHECK(load_error(std::string(300, '[') + std::string(300, ']')).find("deeper than 256") != std::string::npos);
}

TEST_CASE("manifest: type and field errors name the JSON pointer") {
  CHECK(load_error(k_head + R"J("operators": [{"name": "a::b", "kernels": [{"key": 3, "kernel": "k"}]}]})J") ==
        "test.json: /operators/0/kernels/0/key: expected a string, got a number");
  CHECK(load_error(k_head + R"J("operators": [{"name": "a::b", "kernels": [{"key": "CPU"}]}]})J") ==
        "test.json: /operators/0/kernels/0: missing required field 'kernel'");
  CHECK(load_error(k_head + R"J("operators": [{"name": "a::b", "kernels": [{"key": "CPU", "kernel": "k", "fallthruogh": true}]}]})J") ==
        "test.json: /operators/0/kernels/0/fallthruogh: unknown field 'fallthruogh'; did you mean 'fallthrough'?");
  CHECK(load_error(k_head + R"J("operators": {}})J") == "test.json: /operators: expected an array, got an object");
  CHECK(load_error(k_head + R"J("operators": [{"name": "nonamespace"}]})J").find("NAMESPACE::NAME") != std::string::npos);
  CHECK(load_error(R"J({"dispatchctl_manifest": 1, "torch_version": "3.0"})J").find("not supported") != std::string::npos);
  CHECK(load_error(R"J({"dispatchctl_manifest": 2, "torch_version": "2.14"})J").find("unsupported manifest format 2") != std::string::npos);
}

TEST_CASE("manifest: unknown and release-invalid keys get a did-you-mean") {
  CHECK(load_error(k_head + R"J("operators": [{"name": "a::b", "kernels": [{"key": "Meat", "kernel": "k"}]}]})J") ==
        "test.json: /operators/0/kernels/0/key: 'Meat' is not a dispatch key of PyTorch 2.14; did you mean 'Meta'?");
  // ORT and Named exist in 1.13 only.
  CHECK(load_error(k_head + R"J("operators": [{"name": "a::b", "kernels": [{"key": "Named", "kernel": "k"}]}]})J")
            .find("'Named' is not a dispatch key of PyTorch 2.14") != std::string::npos);
  CHECK(load_error(R"J({"dispatchctl_manifest": 1, "torch_version": "1.13.1", "operators": [{"name": "a::b", "kernels": [{"key": "MTIA", "kernel": "k"}]}]})J")
            .find("'MTIA' is not a dispatch key of PyTorch 1.13") != std::string::npos);
  CHECK(load_error(k_head + R"J("fallbacks": [{"key": "CompositeImplicitAutograd", "kernel": "k"}]})J")
            .find("not a runtime key") != std::string::npos);
}

TEST_CASE("manifest: PyTorch's refusals — second schema, second fallback, bad signature") {
  CHECK(load_error(k_head + R"J("operators": [{"name": "a::b", "schema": "a::b() -> ()"}, {"name": "a::b", "schema": "a::b() -> ()"}]})J")
            .find("Tried to register an operator (a::b() -> ()) with the same name and overload name multiple times") != std::string::npos);
  CHECK(load_error(k_head + R"J("fallbacks": [{"key": "CPU", "kernel": "one"}, {"key": "CPU", "kernel": "two"}]})J")
            .find("Tried to register multiple backend fallbacks for the same dispatch key CPU; previous registration one") != std::string::npos);
  const std::string mismatch = load_error(
      k_head + R"J("operators": [{"name": "a::b", "schema": "a::b(Tensor x, Tensor y, *, Scalar alpha=1) -> Tensor", "kernels": [{"key": "CPU", "kernel": "k", "signature": "(Tensor _0, Tensor _1) -> Tensor _0"}]}]})J");
  CHECK(mismatch.find("Inferred operator schema for a C++ kernel function doesn't match the expected function schema") != std::string::npos);
  CHECK(mismatch.find("reason: The number of arguments is different. 3 vs 2.") != std::string::npos);
  CHECK(mismatch.rfind("test.json: /operators/0/kernels/0", 0) == 0);
  // The check also runs when the schema arrives after the kernel.
  CHECK(load_error(k_head + R"J("operators": [{"name": "a::b", "kernels": [{"key": "CPU", "kernel": "k", "signature": "(Tensor _0) -> int _0"}]}, {"name": "a::b", "schema": "a::b(Tensor x) -> Tensor"}]})J")
            .find("Type mismatch in return 1: Tensor vs int") != std::string::npos);
  // SymInt and int, alias annotations and fixed-size lists are the same C++ type.
  CHECK(load_error(k_head + R"J("operators": [{"name": "a::b", "schema": "a::b(Tensor(a!) x, SymInt[2] s) -> Tensor(a!)", "kernels": [{"key": "CPU", "kernel": "k", "signature": "(Tensor _0, SymInt[] _1) -> Tensor _0"}]}]})J") ==
        "(no error)");
}

TEST_CASE("manifest: layering several manifests like libraries loaded in order") {
  const std::string dir = std::string(DISPATCHCTL_SOURCE_DIR) + "/tests/manifests/layering/";
  auto reg = load_registry({dir + "base.json", dir + "override.json"});
  const Operator& op = *reg->find("demo::op");
  const Key cpu = *reg->catalogue().find("CPU");
  CHECK(op.active(cpu)->debug == "cpu_v2");
  CHECK(op.kernels_at(cpu).size() == 2);
  CHECK(op.schema->debug == "base");
  CHECK_THROWS_WITH_AS(load_registry({dir + "base.json", dir + "other_release.json"}),
                       doctest::Contains("does not match '2.14.1'"), InputError);
  CHECK_THROWS_WITH_AS(load_registry({dir + "base.json", dir + "base.json"}),
                       doctest::Contains("same name and overload name multiple times"), InputError);
  // A manifest layered over a built-in registry.
  auto over = load_registry({"builtin:2.14.1", dir + "override.json"});
  CHECK(over->find("aten::add.Tensor") != nullptr);
}

TEST_CASE("manifest: write_manifest round-trips flags and order") {
  auto reg = test::registry_from_json(k_head + R"J("fallbacks": [{"key": "AutogradCPU", "kernel": "ag", "fallthrough": true}],
    "operators": [{"name": "a::b", "schema": "a::b() -> ()", "alias_analysis": "CONSERVATIVE",
    "kernels": [{"key": "CPU", "kernel": "", "fallthrough": true}, {"key": "Meta", "kernel": "py", "unboxed": false}]}]})J");
  auto again = test::registry_from_json(write_manifest(*reg, "2.14.1"));
  const Operator& op = *again->find("a::b");
  CHECK(op.schema->alias_analysis_explicit);
  CHECK(op.registrations[0].fallthrough);
  CHECK_FALSE(op.registrations[0].unboxed);
  CHECK_FALSE(op.registrations[1].unboxed);
  CHECK(op.registrations[1].boxed);
  CHECK(again->fallbacks().at(0).fallthrough);
}
