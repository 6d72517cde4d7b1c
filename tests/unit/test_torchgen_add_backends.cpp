// A build with more backends than the real registry's (torchgen/add_backends.h):
// the registrations torchgen generates at the added backends' keys, and only
// those. Expected values read from the real 2.14.1 native_functions.yaml
// (tests/data/torch-2.14.1/torchgen) and torchgen's output file names
// (Register<DispatchKey>.cpp); the base is the real CPU-only 2.14.1 registry.
#include <doctest/doctest.h>

#include <string>

#include "load/load_registry.h"
#include "torchgen/add_backends.h"
#include "torchgen_support.h"

using namespace dispatchctl;

namespace {
std::string debug_at(const Registry& reg, const std::string& op, const std::string& key) {
  const Operator* o = reg.find(op);
  const Kernel* k = o ? o->active(*reg.catalogue().find(key)) : nullptr;
  return k ? std::string(k->debug) : "";
}
}  // namespace

TEST_CASE("add_backends: MPS adds RegisterMPS's and RegisterSparse*MPS's registrations, nothing of other builds") {
  auto reg = load_registry({"builtin:2.14.1"});
  // YAML: mm.out {MPS: mm_out_mps}; abs {SparseMPS: abs_sparse, SparseCsrMPS: abs_sparse_csr}.
  REQUIRE(debug_at(*reg, "aten::mm.out", "MPS").empty());  // the real build has no MPS kernels
  const std::size_t added =
      torchgen::add_backend_predictions(*reg, test::torchgen_inputs("2.14.1"), {"CPU", "MPS"}, {"MPS"});
  CHECK(added > 100);
  CHECK(debug_at(*reg, "aten::mm.out", "MPS").rfind("registered at RegisterMPS.cpp [predicted: torchgen ", 0) == 0);
  // A structured op's backend kernel, from the YAML entry at line 4146 (`- func: mm.out(...)`).
  CHECK(debug_at(*reg, "aten::mm.out", "MPS").find("structured-backend, native_functions.yaml") != std::string::npos);
  CHECK(debug_at(*reg, "aten::mm.out", "MPS").find(":4146]") != std::string::npos);
  CHECK(debug_at(*reg, "aten::abs", "SparseMPS").rfind("registered at RegisterSparseMPS.cpp [predicted", 0) == 0);
  CHECK(debug_at(*reg, "aten::abs", "SparseCsrMPS").rfind("registered at RegisterSparseCsrMPS.cpp [predicted", 0) == 0);
  // Not built: CUDA and XPU rows stay empty; the real CPU kernel stays as it was.
  CHECK(debug_at(*reg, "aten::mm.out", "CUDA").empty());
  CHECK(debug_at(*reg, "aten::mm.out", "XPU").empty());
  CHECK(debug_at(*reg, "aten::mm.out", "CPU").find("predicted") == std::string::npos);
  CHECK(debug_at(*reg, "aten::mm.out", "CPU").find("RegisterCPU") != std::string::npos);
}
