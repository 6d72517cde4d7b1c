// torchgen's `func:` strings are read by PyTorch's schema parser
// (registry/schema_parser.h) into the one schema type; its types print back
// in YAML spelling (registry/schema_text.h), errors carry PyTorch's wording and the column, and what
// torchgen alone refuses is still refused. Schemas are real native_functions.yaml
// entries of 2.14.1.
#include <doctest/doctest.h>

#include <stdexcept>

#include "registry/schema_text.h"
#include "torchgen/schema.h"

using namespace dispatchctl;

TEST_CASE("torchgen schema: types and annotations in YAML spelling") {
  const auto mean = torchgen::parse_torchgen_schema(
      "mean.out(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None, Tensor(a!) out) -> Tensor(a!)");
  REQUIRE(mean.arguments.size() == 5);
  CHECK(type_text(mean.arguments[1]) == "int[1]?");
  CHECK(mean.arguments[2].default_value == "False");
  CHECK(type_text(mean.arguments[3]) == "ScalarType?");
  CHECK(mean.arguments[3].kwarg_only);
  CHECK(mean.arguments[4].alias == "a!");
  CHECK(torchgen::is_out_argument(mean.arguments[4]));
  CHECK_FALSE(torchgen::is_out_argument(mean.arguments[3]));
  CHECK(mean.full_name() == "aten::mean.out");
  CHECK(torchgen::op_name(mean) == "mean.out");
  CHECK(mean.returns.at(0).alias == "a!");
  CHECK(torchgen::schema_kind(mean) == torchgen::SchemaKind::Out);
  const char* unbind = "unbind_copy.int_out(Tensor self, int dim=0, *, Tensor(a!)[] out) -> ()";
  const auto u = torchgen::parse_torchgen_schema(unbind);
  CHECK(type_text(u.arguments.at(2)) == "Tensor[]");
  CHECK(u.arguments.at(2).alias == "a!");
  CHECK(u.returns.empty());
  CHECK(torchgen::torchgen_text(u) == unbind);
  CHECK(torchgen::schema_kind(torchgen::parse_torchgen_schema("__iand__.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)")) ==
        torchgen::SchemaKind::Inplace);
}

TEST_CASE("torchgen schema: malformed text is refused with PyTorch's wording and the column") {
  CHECK_THROWS_WITH_AS(torchgen::parse_torchgen_schema("my_op(Tensr self) -> Tensor"),
                       "unknown type specifier 'Tensr' (schema column 7); did you mean 'Tensor'?",
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(torchgen::parse_torchgen_schema("my_op(Tensor self, int dim=0 -> Tensor"),
                       "expected ) but found 'arrow' here (schema column 30)", std::invalid_argument);
}

TEST_CASE("torchgen schema: what torchgen refuses and PyTorch's parser takes") {
  CHECK_THROWS_WITH_AS(torchgen::parse_torchgen_schema("f(Tensor self, *, Tensor(a!) out, *, int x) -> Tensor"),
                       "kwarg-only specifier * can only occur once", std::invalid_argument);
  CHECK_THROWS_WITH_AS(torchgen::parse_torchgen_schema("f(Tensor self, *, Tensor(a!) out, int x) -> Tensor"),
                       "argument 'x' follows an out= argument but is not mutable", std::invalid_argument);
  CHECK_THROWS_AS(torchgen::parse_torchgen_schema("f(Tensor! self) -> Tensor"), std::invalid_argument);
  CHECK_THROWS_AS(torchgen::parse_torchgen_schema("f(int(a) x) -> Tensor"), std::invalid_argument);
  CHECK_THROWS_AS(torchgen::parse_torchgen_schema("f(Dict(str, Tensor) d) -> Tensor"), std::invalid_argument);
  CHECK_THROWS_AS(torchgen::parse_torchgen_schema("f(Tensor self, ...) -> Tensor"), std::invalid_argument);
}

TEST_CASE("torchgen schema: a trailing '*' and an unnamed return's spaced annotation (the twelfth corpus)") {
  // FunctionSchema.parse prints the schema back without the '*' and compares.
  CHECK_THROWS_AS(torchgen::parse_torchgen_schema("band_mean(Tensor self, int dim, *) -> Tensor"),
                  std::invalid_argument);
  CHECK_NOTHROW(torchgen::parse_torchgen_schema("band_mean(Tensor self, *, int dim) -> Tensor"));
  // Return.parse splits at the last space: `Tensor(a ->` is no type.
  CHECK_THROWS_WITH_AS(torchgen::parse_torchgen_schema("split_pairs(Tensor(a) self) -> Tensor(a -> *)[]"),
                       doctest::Contains("unrecognized type Tensor(a ->"), std::invalid_argument);
  CHECK_NOTHROW(torchgen::parse_torchgen_schema("split_pairs(Tensor(a -> *) self) -> Tensor(a)[]"));
}

TEST_CASE("torchgen schema: alias sets are single lower-case letters (Annotation.parse's regex)") {
  CHECK_THROWS_WITH_AS(torchgen::parse_torchgen_schema("abs.out(Tensor self, *, Tensor(out!) out) -> Tensor(out!)"),
                       doctest::Contains("unrecognized alias annotation out!"), std::invalid_argument);
  CHECK_THROWS_AS(torchgen::parse_torchgen_schema("f(Tensor(A) self) -> Tensor(A)"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(torchgen::parse_torchgen_schema("f(Tensor(a|b!) self) -> ()"),
                       doctest::Contains("alias set larger than 1 is not mutable"), std::invalid_argument);
  CHECK_NOTHROW(torchgen::parse_torchgen_schema("abs.out(Tensor self, *, Tensor(b!) out) -> Tensor(b!)"));
  CHECK_NOTHROW(torchgen::parse_torchgen_schema("f(Tensor(a|b -> *) self) -> Tensor(a)"));
  CHECK_NOTHROW(torchgen::parse_torchgen_schema("f(Tensor(a! -> a|b) self) -> Tensor(a!)"));
}
