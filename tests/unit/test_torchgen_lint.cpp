// `check` on torchgen's YAML: torchgen's parse-time refusals with its wording.
#include <doctest/doctest.h>

#include "check/lint_torchgen_yaml.h"
#include "builtin/builtin_catalogues.h"
#include "torchgen_support.h"

using namespace dispatchctl;

namespace {

std::vector<Finding> lint(const std::string& yaml) {
  auto inputs = test::torchgen_inputs("2.14.1");
  inputs.native_functions = {"native_functions.yaml", yaml};
  inputs.derivatives.reset();
  inputs.deprecated.reset();  // its entries name the release's operators, not these
  return torchgen::lint_torchgen_yaml(inputs, *builtin_catalogue("2.14.1"));
}

std::string one(const std::vector<Finding>& findings) {
  REQUIRE(findings.size() == 1);
  const Finding& f = findings[0];
  return f.location.file + ":" + std::to_string(f.location.line) + ": " + f.rule + ": " + f.message;
}

}  // namespace

TEST_CASE("check on YAML: the real YAMLs of both releases have no torchgen refusal") {
  for (const char* v : {"2.14.1", "1.13.1"}) {
    const auto findings = torchgen::lint_torchgen_yaml(test::torchgen_inputs(v), *builtin_catalogue(v));
    CHECK_MESSAGE(findings.empty(), v << ": " << (findings.empty() ? "" : findings[0].message));
  }
}

TEST_CASE("check on YAML: torchgen's refusals at the entry's line, in torchgen's words") {
  CHECK(one(lint("- func: a(Tensor self) -> Tensor\n\n- func: my_op(Tensor self) -> Tensor\n  dispatch:\n"
                 "    CompositeImplicitAutograd: x\n    CompositeExplicitAutograd: y\n"))
            .rfind("native_functions.yaml:3: torchgen-refusal: cannot specify more than one of CompositeExplicitAutograd", 0) == 0);
  CHECK(one(lint("- func: my_op(Tensor self) -> Tensor\n  structured_delegate: my_op.out\n")) ==
        "native_functions.yaml:1: torchgen-refusal: my_op is marked as a structured_delegate pointing to "
        "my_op.out, but my_op.out is missing; point structured_delegate at the operator's out= variant, or declare it");
  // The unstructured delegate also makes a group of structured and unstructured
  // members, refused at the same entry: torchgen.gen stops at the entry's first
  // assert, so check reports that one.
  const auto unstructured = lint("- func: my_op.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)\n  dispatch:\n    CPU: o\n"
                                 "- func: my_op(Tensor self) -> Tensor\n  structured_delegate: my_op.out\n");
  REQUIRE(unstructured.size() == 1);
  CHECK(unstructured[0].message.find("but my_op.out is not marked as structured") != std::string::npos);
  CHECK(one(lint("- func: my_op.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)\n  structured: True\n  dispatch:\n"
                 "    CPU: o\n- func: my_op(Tensor self) -> Tensor\n  structured_delegate: my_op.out\n"
                 "  dispatch:\n    CPU: f\n")) ==
        "native_functions.yaml:5: torchgen-refusal: if structured_delegate, then must not have CPU in dispatch "
        "dictionary (it is delegated!); delete that dispatch entry: the delegate's structured out= kernel serves this "
        "operator");
  CHECK(one(lint("- func: new_thing(Tensor self, int n) -> Tensor\n")).find("expected new_thing to have a "
                                                                            "CompositeExplicitAutograd dispatch entry") != std::string::npos);
  CHECK(one(lint("- func: my_op(Tensor self) -> Tensor\n  dispatch:\n    CPU: f\n"
                 "- func: lonely.out(Tensor x, *, Tensor(a!) out) -> Tensor(a!)\n  dispatch:\n    CPU: o\n")) ==
        "native_functions.yaml:4: torchgen-refusal: Found an out= operator that we could not find any other variants "
        "of: lonely.out(Tensor x, *, Tensor(a!) out) -> Tensor(a!); declare the functional variant too");
}

TEST_CASE("check on YAML: a file that is not YAML is one load-error at its line") {
  CHECK(one(lint("- func: my_op(Tensor self) -> Tensor\n  dispatch: [CPU: f\n")).rfind(
            "native_functions.yaml:3: load-error: YAML syntax error", 0) == 0);
}

TEST_CASE("check on YAML: torchgen's asserts that stop its reading are torchgen refusals with a kind") {
  auto kind_of = [](const std::vector<Finding>& findings) {
    REQUIRE(findings.size() == 1);
    CHECK(findings[0].rule == "torchgen-refusal");
    CHECK(findings[0].severity == Severity::Error);
    return findings[0].kind;
  };
  const auto field = lint("- func: my_op(Tensor self) -> Tensor\n  dispach:\n    CPU: f\n");
  CHECK(one(field) ==
        "native_functions.yaml:2: torchgen-refusal: unknown field 'dispach' in a native_functions.yaml entry; did you "
        "mean 'dispatch'?");
  CHECK(kind_of(field) == "unknown-field");
  CHECK(kind_of(lint("- func: my_op(Tensor self) -> Tensor\n  dispatch:\n    MSP: f\n")) == "unknown-dispatch-key");
  CHECK(kind_of(lint("- func: my_op(Tensor self) -> Tensor\n  tags: pointwize\n")) == "illegal-tag");
  CHECK(kind_of(lint("- func: my_op(Tensor self, int) -> Tensor\n  dispatch:\n    CPU: f\n")) == "illegal-schema");
  const auto twice = lint("- func: my_op(Tensor self) -> Tensor\n  dispatch:\n    CPU: f\n"
                          "- func: my_op(Tensor self) -> Tensor\n  dispatch:\n    CPU: g\n");
  CHECK(kind_of(twice) == "duplicate-operator");
  CHECK(twice[0].location.line == 4);
  CHECK(twice[0].op == "aten::my_op");
  // Without a suggestion, the kind's fix ends the line.
  CHECK(one(lint("- func: my_op(Tensor self) -> Tensor\n  tags: zzzzzzzzzzzz\n")) ==
        "native_functions.yaml:2: torchgen-refusal: illegal tag zzzzzzzzzzzz; use a tag tags.yaml declares, or declare "
        "the new one there (`- tag: NAME` with a `desc:`)");
}
