// Schemas parsed as PyTorch's schema parser parses them. The accepted and
// refused cases below were recorded with torch._C.parse_schema on Debian's
// PyTorch 1.13.1 (their wording is PyTorch's; 2.x added the double/int64_t
// hints and restricts type variables to aten::/prim::).
#include <doctest/doctest.h>

#include "keys/catalogue.h"
#include "builtin/builtin_catalogues.h"
#include "registry/schema_parser.h"
#include "load/load_registry.h"
#include "test_support.h"

using namespace dispatchctl;
using test::load_error;

namespace {

std::string refusal(const std::string& schema, bool typevars = false) {
  auto parsed = parse_function_schema(schema, {typevars});
  if (auto* e = std::get_if<SchemaError>(&parsed)) return e->message;
  return "(accepted)";
}

size_t refusal_offset(const std::string& schema) {
  return std::get<SchemaError>(parse_function_schema(schema)).offset;
}


}  // namespace

TEST_CASE("schema parser: every schema of both real registries parses and names its operator") {
  for (const char* version : {"2.14.1", "1.13.1"}) {
    auto registry = load_registry({std::string("builtin:") + version});
    // Release profile data: the 1.13 profile says its parser takes type variables everywhere.
    const bool typevars_everywhere = registry->catalogue().spec().schema_type_variables_in_any_namespace;
    CHECK(typevars_everywhere == (std::string(version) == "1.13.1"));
    size_t parsed = 0;
    std::string first_failure;
    for (const auto& op : registry->operators()) {
      if (!op.schema) continue;
      auto result = parse_function_schema(op.schema->text, {typevars_everywhere});
      if (auto* schema = std::get_if<FunctionSchema>(&result); schema && schema->full_name() == op.name) ++parsed;
      else if (first_failure.empty())
        first_failure = op.schema->text + ": " +
                        (schema ? "names " + schema->full_name() : std::get<SchemaError>(result).message);
    }
    CHECK_MESSAGE(first_failure.empty(), first_failure);
    // 2.14.1 has 3,640 operators, one of them without a schema (an impl only).
    CHECK(parsed == (std::string(version) == "2.14.1" ? 3639u : 3380u));
  }
}

TEST_CASE("schema parser: what PyTorch accepts") {
  for (const char* ok : {
           "myops::g(Tensor(a!) x, *, int[2] s=1) -> (Tensor(a!) out, Tensor b)",
           "a::b(Tensor x, ...) -> ()", "a::b(Tensor x, int y=1, int[] z) -> ()",
           "a::b(Tensor x, int y=1, *, Tensor z) -> ()", "a::b(int[2] x=[1,2,3]) -> ()", "a::b(Tensor? x=1) -> ()",
           "a::b(Tensor! x) -> Tensor(a)", "a::b(Tensor(a|b) x, Tensor(*) y) -> ()", "a::b(Dict(str, Tensor) d) -> ()",
           "a::b(Tensor?[] x, int[2]? y=None) -> ()", "a::b(int x=True) -> ()", "a::b(Tensor x) -> (Tensor, Tensor)",
           "a::b() -> ()", "a::b(Tensor x) -> Tensor[]", "a::b(Device d='cpu') -> ()", "a::b(str s=\"a\") -> ()",
           "a::b(bool[3] x=[True,False,True]) -> ()", "a::b(float[] x=[1,2]) -> ()", "a::b(Tensor(a -> *)[] y) -> ()",
           "a::b(Tensor x) -> ...", "a(Tensor x) -> ()", "a::b(Tensor x) -> () # comment", "a::b(Stream s) -> ()",
           "a::b(complex c=1j, Scalar s=1.5e3, Scalar? z=-2.5) -> ()", "a::b(Tensor x,\n int y) -> ()",
           "a::b(ScalarType d=float, Layout l=strided, MemoryFormat m=contiguous_format, int r=Mean) -> ()",
           "a::b(SymInt[] size, Dimname n, Storage s, Any a, Tensor from, Generator? g=None) -> ()",
           "aten::b(t x) -> t"}) {
    CHECK_MESSAGE(refusal(ok) == "(accepted)", ok);
  }
}

TEST_CASE("schema parser: what PyTorch refuses, in its words") {
  CHECK(refusal("myops::g(Tensr x) -> Tensor") == "unknown type specifier 'Tensr'");
  CHECK(refusal_offset("myops::g(Tensr x) -> Tensor") == 9);
  CHECK(refusal("myops::g(Tensor x") == "expected ) but found 'eof' here");
  CHECK(refusal("myops::g(Tensor x, int y=foo) -> Tensor") == "invalid numeric default value");
  CHECK(refusal("myops::g(Tensor x) Tensor") == "expected arrow but found 'ident' here");
  CHECK(refusal("myops::g") == "Tried to parse a function schema but only the operator name was given");
  CHECK(refusal("my ops::g(Tensor x) -> ()") == "expected eof but found 'ident' here");
  CHECK(refusal("myops::g(Tensor x=1) -> ()") == "expected None but found 'number' here");
  CHECK(refusal("myops::g(Tensor[] x=[]) -> ()") == "lists are only supported for float, int and complex types");
  CHECK(refusal("myops::g.default(Tensor x) -> ()") == "default is not a legal overload name for aten operators");
  CHECK(refusal("a::b.__x(Tensor x) -> ()") == "__x is not a legal overload name for aten operators");
  CHECK(refusal("myops::g(Tensor x) -> Tensor y z") == "expected eof but found 'ident' here");
  CHECK(refusal("a::b(float x=-inf) -> ()") == "expected number but found 'ident' here");
  CHECK(refusal("a::b(Tensor x) -> (Tensor a, Tensor b,)") == "expected ident but found ')' here");
  CHECK(refusal("a::b(Tensor x,) -> ()") == "expected ident but found ')' here");
  CHECK(refusal("a::b(Device d=1) -> ()") == "expected string_literal but found 'number' here");
  CHECK(refusal("a::b(Any a=None) -> ()") == "unexpected type, file a bug report");
  CHECK(refusal("a::b(Storage a=None) -> ()") == "unexpected type, file a bug report");
  CHECK(refusal("a::b(Tensor x, ..., Tensor y) -> ()") == "... must be the last element of the argument list");
  CHECK(refusal("a::b(Tensor x=None, ...) -> ()") == "schemas with vararg (...) can't have default value args");
  CHECK(refusal("a::b::c(Tensor x) -> ()") == "expected eof but found ':' here");
  CHECK(refusal("a::b(Tensor in) -> ()") == "expected ident but found 'in' here");
  // PyTorch segfaults or asserts on these; refused here with its assertion's words.
  CHECK(refusal("a::b(Tensor x, int y=1, Tensor z) -> ()") ==
        "Non-default positional argument follows default argument. Parameter z");
  CHECK(refusal("a::b(int[2] x=1.5) -> ()") == "a list default of this type holds int values only");
  // 2.x: type variables only in aten:: and prim::; double and int64_t get hints.
  CHECK(refusal("myops::g(t x) -> t") == "unknown type specifier 't'");
  CHECK(refusal("myops::g(t x) -> t", true) == "(accepted)");
  CHECK(refusal("a::b(double x) -> ()").rfind("Use `float` instead of `double`", 0) == 0);
  CHECK(refusal("a::b(int64_t x) -> ()").rfind("Use `SymInt` or `int` instead of `int64_t`", 0) == 0);
}

TEST_CASE("schema parser: Tensor arguments a call takes") {
  auto arity = [](const std::string& text) { return tensor_arity(std::get<FunctionSchema>(parse_function_schema(text))); };
  auto add = arity("aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor");
  CHECK(add.min == 2);
  CHECK(add.max == 2u);
  auto conv = arity("aten::conv2d(Tensor input, Tensor weight, Tensor? bias=None, SymInt[2] stride=1) -> Tensor");
  CHECK(conv.min == 2);
  CHECK(conv.max == 3u);
  CHECK(conv.names == std::vector<std::string>{"input", "weight", "bias?"});
  auto cat = arity("aten::cat(Tensor[] tensors, int dim=0) -> Tensor");
  CHECK(cat.min == 0);
  CHECK(!cat.max);
}

TEST_CASE("manifest: a bad schema is one line with file:line:column, PyTorch's words and a fix") {
  const std::string head = "{\"dispatchctl_manifest\": 1, \"torch_version\": \"2.14.1\",\n \"operators\": [\n";
  CHECK(load_error(head + R"J(  {"name": "myops::g", "schema": "myops::g(Tensr x) -> Tensor"}]})J") ==
        "test.json:3:44: /operators/0/schema: unknown type specifier 'Tensr'; did you mean 'Tensor'?");
  CHECK(load_error(head + R"J(  {"name": "myops::g", "schema": "myops::h(Tensor x) -> Tensor"}]})J") ==
        "test.json:3:35: /operators/0/schema: the schema defines 'myops::h' but \"name\" is 'myops::g'; "
        "make them the same operator");
  // An escaped quote before the error moves the column by the escape's length.
  CHECK(load_error(head + R"J(  {"name": "a::b", "schema": "a::b(str s=\"x\", Tensr y) -> ()"}]})J")
            .rfind("test.json:3:49: ", 0) == 0);
  CHECK(load_error(head + R"J(  {"name": "a::b", "schema": "a::b(Tensor x) -> ()"}]})J") == "(no error)");
}

TEST_CASE("manifest: type variables outside aten::/prim:: follow the release profile, not a release number") {
  // Recorded on Debian's 1.13.1: lib.def_("typevars(t x) -> t") in a custom namespace is accepted.
  const std::string custom = R"J("operators": [{"name": "myops::g", "schema": "myops::g(t x) -> t"}]})J";
  CHECK(load_error(R"J({"dispatchctl_manifest": 1, "torch_version": "1.13.1", )J" + custom) == "(no error)");
  CHECK(load_error(R"J({"dispatchctl_manifest": 1, "torch_version": "2.14.1", )J" + custom)
            .find("unknown type specifier 't'") != std::string::npos);
  CHECK(builtin_catalogue("1.13")->spec().schema_type_variables_in_any_namespace);
  CHECK_FALSE(builtin_catalogue("2.14")->spec().schema_type_variables_in_any_namespace);
}
