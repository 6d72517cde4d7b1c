// How torchgen's YAML loader (PyYAML's SafeLoader, one document) reads a scalar
// and a stream, checked with the real torchgen 2.14.1 (the fifteenth corpus,
// tests/torchgen_corpus/edits-fifteenth.json): a plain `yes` / `no` is a bool,
// a quoted "True" a string; a second document is refused at its `---`.
#include <doctest/doctest.h>

#include <string>

#include "torchgen/refusals.h"
#include "torchgen/yaml_reading.h"
#include "torchgen_support.h"
#include "util/errors.h"

using namespace dispatchctl;

namespace {

// A structured out= and its functional, `structured:` written as given.
std::string structured_pair(const std::string& structured) {
  return "- func: my_neg15.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)\n  structured: " + structured +
         "\n  dispatch:\n    CPU: my_neg15_out\n\n- func: my_neg15(Tensor self) -> Tensor\n"
         "  structured_delegate: my_neg15.out\n";
}

std::string reading_error(const std::string& native_functions) {
  try {
    test::predict_yaml(native_functions);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("yaml values: a plain YAML 1.1 bool is a bool, a quoted one or a number is not") {
  const YAML::Node n = YAML::Load("a: yes\nb: 'True'\nc: 1\nd: Off\ne: \"no\"\nf: TRUE\ng: y\n");
  CHECK(torchgen::yaml_bool(n["a"]) == true);
  CHECK(!torchgen::yaml_bool(n["b"]));
  CHECK(!torchgen::yaml_bool(n["c"]));
  CHECK(torchgen::yaml_bool(n["d"]) == false);
  CHECK(!torchgen::yaml_bool(n["e"]));
  CHECK(torchgen::yaml_bool(n["f"]) == true);
  CHECK(!torchgen::yaml_bool(n["g"]));  // PyYAML's resolver has no y / n
}

TEST_CASE("yaml values: structured: yes is structured; \"True\" and 1 are refused at the field") {
  // e15-structured-yes (accepted), e15-structured-quoted-true, e15-structured-one (refused:
  // NativeFunction.from_yaml's `not a bool`).
  CHECK(reading_error(structured_pair("yes")).empty());
  CHECK(reading_error(structured_pair("true")).empty());
  for (const char* value : {"\"True\"", "1"}) {
    CAPTURE(value);
    const std::string error = reading_error(structured_pair(value));
    CHECK(error.find(":2: 'structured' must be True or False") != std::string::npos);
  }
}

TEST_CASE("yaml values: a second YAML document is refused at its ---, a first --- is not") {
  // e15-doc-separator-after (ComposerError at the `---`), e15-doc-separator-at-start (accepted).
  const torchgen::YamlSource one{"f.yaml", "---\n# a comment\n- tag: a\n  desc: b\n"};
  CHECK(torchgen::load_yaml_document(one).IsSequence());
  const torchgen::YamlSource two{"f.yaml", "# a comment\n- tag: a\n  desc: b\n---\n"};
  CHECK_THROWS_WITH_AS(torchgen::load_yaml_document(two),
                       "f.yaml:4: YAML syntax error: expected a single document in the stream but found another document",
                       InputError);
  const torchgen::YamlSource bom{"f.yaml", "\xEF\xBB\xBF---\n- tag: a\n  desc: b\n"};
  CHECK(torchgen::load_yaml_document(bom).IsSequence());
}

TEST_CASE("yaml values: precomputed written on one line is refused, indented below its key is read") {
  // e15-precomputed-scalar (Precompute.parse: "precomputed must be a list, got <class 'str'>"),
  // e15-precomputed-indented (accepted).
  const std::string entry =
      "- func: my_cat15.out(Tensor[] tensors, int dim=0, *, Tensor(a!) out) -> Tensor(a!)\n  structured: True\n"
      "  precomputed:PRECOMPUTED\n  dispatch:\n    CPU: my_cat15_out\n\n"
      "- func: my_cat15(Tensor[] tensors, int dim=0) -> Tensor\n  structured_delegate: my_cat15.out\n";
  auto with = [&](const std::string& precomputed) {
    std::string text = entry;
    return text.replace(text.find("PRECOMPUTED"), 11, precomputed);
  };
  CHECK(reading_error(with("\n      - dim -> int dim, bool all_contiguous")).empty());
  const std::string error = reading_error(with(" dim -> int dim, bool all_contiguous"));
  CHECK(error.find(":1: precomputed: precomputed must be a list, got a string") != std::string::npos);
}

TEST_CASE("yaml values: a file left with comments only is refused, as every torchgen reader refuses None") {
  // e15-tags-comment-only (parse_tags_yaml_struct: "Expected 'es' to be a list, but got <class
  // 'NoneType'>"), e15-depr-comment-only (load_deprecated_signatures: 'NoneType' object is not iterable).
  const torchgen::YamlSource comments{"tags.yaml", "# This yaml file contains all the possible tags\n"};
  try {
    torchgen::load_entry_list(comments, "- tag: ...");
    FAIL("not refused");
  } catch (const torchgen::TorchgenRefusal& e) {
    CHECK(e.refusal.id == "malformed-entry");
    CHECK(e.refusal.loc.line == 1);
  }
}
