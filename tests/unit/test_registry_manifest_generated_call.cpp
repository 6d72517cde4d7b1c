// A manifest kernel's "generated_call" (docs/manifest-format.md): what a
// generated composite calls, read, applied, followed, written back; and the
// calls of a real registry (builtin:1.13.1, equal to real torchgen 1.13.1's)
// survive a manifest round trip.
#include <doctest/doctest.h>

#include <set>
#include <tuple>

#include "builtin/builtin_catalogues.h"
#include "load/load_registry.h"
#include "registry/manifest.h"
#include "table/outcome.h"
#include "test_support.h"

using namespace dispatchctl;

namespace {

// A structured operator of an out-of-tree library: its functional variant's
// generated composite calls the out= variant, which only CPU implements.
std::string structured(bool with_call) {
  return std::string(R"J({"dispatchctl_manifest": 1, "torch_version": "2.14.1", "operators": [
  {"name": "myops::scale.out", "schema": "myops::scale.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)",
   "kernels": [{"key": "CPU", "kernel": "scale_out_cpu"}]},
  {"name": "myops::scale", "schema": "myops::scale(Tensor self) -> Tensor",
   "kernels": [{"key": "CompositeExplicitAutogradNonFunctional", "kernel": "RegisterCompositeExplicitAutogradNonFunctional.cpp")J") +
         (with_call ? R"J(, "generated_call": {"op": "myops::scale.out", "kind": "structured_out"})J" : "") + "}]}]}";
}

using Call = std::tuple<std::string, std::string, std::string, std::string>;  // op, key, callee, kind

std::set<Call> calls_of(const Registry& reg) {
  std::set<Call> out;
  for (const Operator& op : reg.operators())
    for (const Kernel& k : op.registrations)
      if (const GeneratedCall* call = reg.generated_call(k))
        out.emplace(op.name, reg.catalogue().name(k.key), call->callee, generated_call_kind_id(call->kind));
  return out;
}

RowOutcome followed_at(const Registry& reg, std::string_view op_name, std::string_view key) {
  const Operator& op = *reg.find(op_name);
  const Key k = *reg.catalogue().find(key);
  return classify_followed(reg, op, compute_row(reg, op, k),
                           [&](const Operator& o, Key at) { return compute_row(reg, o, at); });
}

}  // namespace

TEST_CASE("manifest generated_call: read, followed to its callee's row, written back") {
  auto reg = test::registry_from_json(structured(true));
  CHECK(calls_of(*reg) == std::set<Call>{{"myops::scale", "CompositeExplicitAutogradNonFunctional",
                                          "myops::scale.out", "structured_out"}});
  // CPU: the callee has a kernel, the composite works. PrivateUse1: the callee has none.
  CHECK(followed_at(*reg, "myops::scale", "CPU").outcome == Outcome::Composite);
  const RowOutcome pu1 = followed_at(*reg, "myops::scale", "PrivateUse1");
  CHECK(pu1.outcome == Outcome::CompositeFails);
  CHECK(dependency_text(reg->catalogue(), pu1.needs) == "composite; needs myops::scale.out (missing)");
  auto again = test::registry_from_json(write_manifest(*reg, "2.14.1"));
  CHECK(calls_of(*again) == calls_of(*reg));
  // Without the field the same kernel is taken at face value (what old manifests say).
  auto face_value = test::registry_from_json(structured(false));
  CHECK(face_value->generated_call_count() == 0);
  CHECK(followed_at(*face_value, "myops::scale", "PrivateUse1").outcome == Outcome::Composite);
}

TEST_CASE("manifest generated_call: bad values name their JSON pointer") {
  const std::string head = R"J({"dispatchctl_manifest": 1, "torch_version": "2.14.1", "operators": [{"name": "a::b", "kernels": [{"key": "CPU", "kernel": "k", "generated_call": )J";
  CHECK(test::load_error(head + R"J({"op": "a::b.out", "kind": "structured"}}]}]})J") ==
        "test.json: /operators/0/kernels/0/generated_call/kind: 'structured' is not a kind of generated call; did "
        "you mean 'structured_out'?; expected structured_out, autogen_out or autogen_functional");
  CHECK(test::load_error(head + R"J({"op": "b_out", "kind": "autogen_out"}}]}]})J") ==
        "test.json: /operators/0/kernels/0/generated_call/op: operator name 'b_out' is not NAMESPACE::NAME[.OVERLOAD]");
  CHECK(test::load_error(head + R"J({"kind": "autogen_out"}}]}]})J") ==
        "test.json: /operators/0/kernels/0/generated_call: missing required field 'op'");
  CHECK(test::load_error(head + R"J("a::b.out"}]}]})J") ==
        "test.json: /operators/0/kernels/0/generated_call: expected an object, got a string");
}

TEST_CASE("manifest generated_call: builtin:1.13.1's calls (real torchgen 1.13.1's) survive write and read") {
  auto reg = load_registry({"builtin:1.13.1"});
  const std::set<Call> calls = calls_of(*reg);
  CHECK(calls.size() > 800);
  const std::string text = write_manifest(*reg, reg->torch_version());
  Registry again(reg->catalogue(), reg->torch_version());
  apply_manifest(again, read_manifest(text, "builtin.json", {builtin_releases()}));
  CHECK(calls_of(again) == calls);
}
