// Backend YAML in gen_backend_stubs.py's format: `supported` and
// `full_codegen` ops at the backend key, `autograd` ops at Autograd<backend>.
#include <doctest/doctest.h>

#include "load/load_registry.h"
#include "test_support.h"
#include "torchgen/backend_yaml.h"
#include "util/errors.h"

using namespace dispatchctl;
using namespace dispatchctl::torchgen;

namespace {

std::vector<PredictedRegistration> parse(const std::string& text) {
  static auto base = load_registry({"builtin:2.14.1"});
  return parse_backend_yaml({"xla_native_functions.yaml", text}, *base);
}

std::string error_of(const std::string& text) {
  return test::input_error_of([&] { parse(text); });
}

}  // namespace

TEST_CASE("backend YAML: supported and full_codegen at the backend key, autograd at its Autograd key") {
  const auto r = parse(
      "backend: XLA\ncpp_namespace: torch_xla\nsupported:\n  - add.Tensor\n  - abs\nfull_codegen:\n  - relu\n"
      "autograd:\n  - max_pool2d\nir_gen:\n  - selu\nsymint:\n  - empty.memory_format\n");
  // The listed kernels, then the out= and in-place wrappers of each listed
  // functional op's group (max_pool2d has no out= variant: no group).
  REQUIRE(r.size() == 10);
  CHECK(r[0].op == "aten::add.Tensor");
  CHECK(r[0].key == "XLA");
  CHECK(r[0].loc.line == 4);
  CHECK(r[0].rule == "backend-supported");
  CHECK(r[2].op == "aten::relu");
  CHECK(r[2].key == "XLA");
  CHECK(r[3].op == "aten::add.out");
  CHECK(r[3].rule == "backend-wrapper");
  CHECK(r[3].loc.line == 4);
  CHECK(r[4].op == "aten::add_.Tensor");
  CHECK(r[8].op == "aten::relu_");
  CHECK(r[8].loc.line == 7);
  CHECK(r[9].op == "aten::max_pool2d");
  CHECK(r[9].key == "AutogradXLA");
  CHECK(r[9].loc.line == 9);
}

TEST_CASE("backend YAML: use_out_as_primary turns the wrappers off; autograd entries alone register nothing") {
  CHECK(parse("backend: XLA\ncpp_namespace: x\nuse_out_as_primary: True\nsupported: [relu]\n").size() == 1);
  CHECK(parse("backend: XLA\ncpp_namespace: x\nautograd: [relu]\n").empty());
  CHECK(error_of("backend: XLA\ncpp_namespace: x\ndevice_guard: yes please\nsupported: [relu]\n").find(
            "xla_native_functions.yaml:3: You must provide either True or False for device_guard") == 0);
}

TEST_CASE("backend YAML: PrivateUse1 registers at PrivateUse1 and AutogradPrivateUse1 through -m") {
  auto registry = load_registry({"builtin:2.14.1", "torchgen-backend:" + std::string(DISPATCHCTL_SOURCE_DIR) +
                                                       "/examples/torchgen/my_backend_native_functions.yaml"});
  const Catalogue& cat = registry->catalogue();
  CHECK(registry->find("aten::add.Tensor")->has(*cat.find("PrivateUse1")));
  CHECK(registry->find("aten::relu")->has(*cat.find("AutogradPrivateUse1")));
  CHECK_FALSE(registry->find("aten::relu")->has(*cat.find("PrivateUse1")));
}

TEST_CASE("backend YAML: gen_backend_stubs' refusals with file:line") {
  CHECK(error_of("backend: XLA\ncpp_namespace: x\nsupported:\n  - add.Tensr\n") ==
        "xla_native_functions.yaml:4: Found an invalid operator name: add.Tensr; did you mean 'aten::add.Tensor'?");
  CHECK(error_of("backend: XLA\ncpp_namespace: x\nsuported:\n  - add.Tensor\n").find(
            "xla_native_functions.yaml:3: contains unexpected keys: suported; did you mean 'supported'?") == 0);
  CHECK(error_of("cpp_namespace: x\nsupported: [abs]\n") ==
        "xla_native_functions.yaml:1: You must provide a value for \"backend\"");
  CHECK(error_of("backend: XLB\ncpp_namespace: x\nsupported: [abs]\n").find(
            "xla_native_functions.yaml:1: The provided value for \"backend\" must be a valid DispatchKey") == 0);
  CHECK(error_of("backend: FPGA\ncpp_namespace: x\nautograd: [abs]\n").find("\"AutogradFPGA\" is not a valid DispatchKey") !=
        std::string::npos);
  CHECK(error_of("backend: XLA\ncpp_namespace: x\nsupported: [abs\n").find("xla_native_functions.yaml:") == 0);
  CHECK(error_of("backend: XLA\ncpp_namespace: x\nsupported:\n  - abs\nautograd:\n  - abs_\n").find(
            "xla_native_functions.yaml:6: Currently, all variants of an op must either be registered to a backend key, "
            "or to a backend's autograd key. They cannot be mix and matched. abs is listed under \"supported\", but "
            "abs_ is listed under \"autograd\".") == 0);
}
