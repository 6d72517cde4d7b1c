// torchgen's `func:` strings are read by PyTorch's schema parser
// (registry/schema_parser.h) and adapted to torchgen's model: types come back
// in YAML spelling, errors carry PyTorch's wording and the column, and what
// torchgen alone refuses is still refused. Schemas are real native_functions.yaml
// entries of 2.14.1.
#include <doctest/doctest.h>

#include <stdexcept>

#include "torchgen/schema.h"

using namespace dispatchctl;

TEST_CASE("torchgen schema: types and annotations in YAML spelling") {
  const auto mean = torchgen::parse_function_schema(
      "mean.out(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None, Tensor(a!) out) -> Tensor(a!)");
  REQUIRE(mean.arguments.size() == 5);
  CHECK(mean.arguments[1].type == "int[1]?");
  CHECK(mean.arguments[2].default_value == "False");
  CHECK(mean.arguments[3].type == "ScalarType?");
  CHECK(mean.arguments[3].kwarg_only);
  CHECK(mean.arguments[4].annotation == "a!");
  CHECK(mean.arguments[4].out);
  CHECK(mean.returns.at(0).annotation == "a!");
  CHECK(mean.kind() == torchgen::SchemaKind::Out);
  const char* unbind = "unbind_copy.int_out(Tensor self, int dim=0, *, Tensor(a!)[] out) -> ()";
  const auto u = torchgen::parse_function_schema(unbind);
  CHECK(u.arguments.at(2).type == "Tensor[]");
  CHECK(u.arguments.at(2).annotation == "a!");
  CHECK(u.returns.empty());
  CHECK(u.to_string() == unbind);
  CHECK(torchgen::parse_function_schema("__iand__.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)").kind() ==
        torchgen::SchemaKind::Inplace);
}

TEST_CASE("torchgen schema: malformed text is refused with PyTorch's wording and the column") {
  CHECK_THROWS_WITH_AS(torchgen::parse_function_schema("my_op(Tensr self) -> Tensor"),
                       "unknown type specifier 'Tensr' (schema column 7); did you mean 'Tensor'?",
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(torchgen::parse_function_schema("my_op(Tensor self, int dim=0 -> Tensor"),
                       "expected ) but found 'arrow' here (schema column 30)", std::invalid_argument);
}

TEST_CASE("torchgen schema: what torchgen refuses and PyTorch's parser takes") {
  CHECK_THROWS_WITH_AS(torchgen::parse_function_schema("f(Tensor self, *, Tensor(a!) out, *, int x) -> Tensor"),
                       "kwarg-only specifier * can only occur once", std::invalid_argument);
  CHECK_THROWS_WITH_AS(torchgen::parse_function_schema("f(Tensor self, *, Tensor(a!) out, int x) -> Tensor"),
                       "argument 'x' follows an out= argument but is not mutable", std::invalid_argument);
  CHECK_THROWS_AS(torchgen::parse_function_schema("f(Tensor! self) -> Tensor"), std::invalid_argument);
  CHECK_THROWS_AS(torchgen::parse_function_schema("f(int(a) x) -> Tensor"), std::invalid_argument);
  CHECK_THROWS_AS(torchgen::parse_function_schema("f(Dict(str, Tensor) d) -> Tensor"), std::invalid_argument);
  CHECK_THROWS_AS(torchgen::parse_function_schema("f(Tensor self, ...) -> Tensor"), std::invalid_argument);
}
