// `-m builtin:2.14.1 -m torchgen:DIR`: the YAML's predictions replace the
// built-in's codegen registrations; hand-written C++ and Python stay.
#include <doctest/doctest.h>

#include "diff/diff.h"
#include "load/load_registry.h"
#include "table/table.h"
#include "torchgen_support.h"

using namespace dispatchctl;

namespace {

// A row as (runtime key -> tag, registering key): the debug text of a
// predicted kernel names the YAML, not PyTorch's generated file.
std::vector<std::tuple<Key, Rule, Key>> row_shape(const Registry& registry, const Operator& op) {
  std::vector<std::tuple<Key, Rule, Key>> out;
  for (const Row& row : compute_table(registry, op)) out.emplace_back(row.key, row.rule, row.provider);
  return out;
}

size_t identical_tables(const Registry& expected, const Registry& actual, std::string& first_difference) {
  size_t identical = 0;
  for (const Operator& op : expected.operators()) {
    const Operator* other = actual.find(op.name);
    if (other && row_shape(expected, op) == row_shape(actual, *other)) ++identical;
    else if (first_difference.empty()) first_difference = op.name;
  }
  return identical;
}

}  // namespace

TEST_CASE("torchgen over builtin:2.14.1: every table keeps its rows, codegen rows name the YAML") {
  const std::string dir = test::torchgen_dir("2.14.1");
  auto builtin = load_registry({"builtin:2.14.1"});
  auto layered = load_registry({"builtin:2.14.1", "torchgen:" + dir});
  CHECK(layered->operators().size() == builtin->operators().size());
  std::string first_difference;
  CHECK_MESSAGE(identical_tables(*builtin, *layered, first_difference) == 3640, first_difference);

  const Operator* add = layered->find("aten::add.Tensor");
  REQUIRE(add != nullptr);
  const Kernel* cpu = add->active(*layered->catalogue().find("CPU"));
  REQUIRE(cpu != nullptr);
  CHECK(cpu->origin.file() == dir + "/native_functions.yaml.gz");
  CHECK(cpu->origin.line() == 541);  // `- func: add.Tensor(...)` in 2.14.1's YAML
  // Agreeing with the base, it keeps PyTorch's own kernel identity, so diff shows nothing.
  CHECK(cpu->debug == builtin->find("aten::add.Tensor")->active(*builtin->catalogue().find("CPU"))->debug);
  CHECK(diff_registries(*builtin, *layered).empty());
  CHECK(add->schema->origin.file() == dir + "/native_functions.yaml.gz");
  // Hand-written kernels stay: Python's Meta kernel still wins over the C++ one.
  const Kernel* meta = add->active(*layered->catalogue().find("Meta"));
  REQUIRE(meta != nullptr);
  CHECK(meta->debug.find("_meta_registrations.py") != std::string::npos);
}

TEST_CASE("torchgen with no base registry: the predictions alone") {
  auto alone = load_registry({"torchgen:" + test::torchgen_dir("2.14.1")});
  CHECK(alone->torch_version() == "2.14.1");
  CHECK(alone->operators().size() == 3103);
  const Operator* add = alone->find("aten::add.Tensor");
  REQUIRE(add != nullptr);
  // Alone, the debug text names the generated file, the rule and the YAML.
  CHECK(add->active(*alone->catalogue().find("CPU"))->debug ==
        "registered at RegisterCPU.cpp [torchgen structured-backend, native_functions.yaml.gz]");
  size_t kernels = 0;
  for (const Operator& op : alone->operators()) kernels += op.registrations.size();
  CHECK(kernels == 12883);
  CHECK(alone->fallbacks().empty());
}

TEST_CASE("torchgen over builtin:1.13.1 without derivatives.yaml: at least 3,365 of 3,380 tables keep their rows") {
  auto builtin = load_registry({"builtin:1.13.1"});
  auto layered = load_registry({"builtin:1.13.1", "torchgen:" + test::torchgen_dir("1.13.1")});
  std::string first_difference;
  const size_t identical = identical_tables(*builtin, *layered, first_difference);
  CHECK(builtin->operators().size() == 3380);
  CHECK_MESSAGE(identical >= 3365, identical << " identical; first difference " << first_difference);
}

TEST_CASE("torchgen: --build-backends reads its list with split_list and names unknown backends") {
  using torchgen::parse_build_backends;
  CHECK(parse_build_backends("CPU, CUDA,", "2.14.1") == std::set<std::string>{"CPU", "CUDA"});
  CHECK_THROWS_WITH_AS(parse_build_backends("CPU,,CUDA", "2.14.1"),
                       "--build-backends: item 2 of 'CPU,,CUDA' is empty; give names separated by single commas, "
                       "e.g. A,B",
                       InputError);
  CHECK_THROWS_WITH_AS(parse_build_backends("CPU,CUDX", "2.14.1"),
                       "--build-backends: unknown backend 'CUDX'; did you mean 'CUDA'? "
                       "(known: CPU, CUDA, MPS, MTIA, XPU)",
                       InputError);
}
