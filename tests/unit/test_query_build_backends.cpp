// Which backends a registry's build has kernels for (issue 11 item 2). Both
// built-in registries are Debian's CPU-only builds (their READMEs in
// /work/shared/data say so): real CPU and Meta kernels, and at CUDA only
// torch.distributed's c10d collectives and two Python kernels.
#include <doctest/doctest.h>

#include "query/predicates.h"
#include "load/load_registry.h"
#include "test_support.h"

using namespace dispatchctl;

TEST_CASE("build backends: the built-in registries are CPU-only builds") {
  for (const char* source : {"builtin:2.14.1", "builtin:1.13.1"}) {
    CAPTURE(source);
    auto reg = load_registry({source});
    const BuildBackends b = build_backends(*reg);
    CHECK(b.cpu_only);
    CHECK(b.compiled == std::vector<std::string>{"CPU", "Meta"});
    CHECK_FALSE(b.compiled_in("CUDA"));
    const Catalogue& cat = reg->catalogue();
    const std::string note = not_compiled_note(cat, b, *cat.find("AutogradCUDA"));
    CHECK(note.find("CPU-only build (no kernels for CUDA)") == 0);
    CHECK(not_compiled_note(cat, b, *cat.find("CPU")).empty());
  }
}

TEST_CASE("build backends: a backend with kernels is compiled in; a CUDA kernel makes it no CPU-only build") {
  auto reg = load_registry({"builtin:2.14.1", std::string(DISPATCHCTL_SOURCE_DIR) + "/examples/privateuse1_backend.json"});
  const BuildBackends b = build_backends(*reg);
  CHECK(b.compiled_in("PrivateUse1"));
  CHECK(b.cpu_only);
  auto cuda = test::registry_from_json(R"({"dispatchctl_manifest": 1, "torch_version": "2.14.1", "operators": [
      {"name": "aten::relu", "schema": "aten::relu(Tensor self) -> Tensor",
       "kernels": [{"key": "CPU", "kernel": "cpu"}, {"key": "SparseCUDA", "kernel": "sparse cuda"}]}]})");
  const BuildBackends c = build_backends(*cuda);
  CHECK(c.compiled_in("CUDA"));
  CHECK_FALSE(c.cpu_only);
  // Only a CPU-only build gets the note.
  CHECK(not_compiled_note(cuda->catalogue(), c, *cuda->catalogue().find("XLA")).empty());
}
