// The one reader of a registration's debug text for where its code comes from
// (issue 32): the texts are the real dumps' (2.14.1, 1.13.1) and the ones the
// torchgen loaders write.
#include <doctest/doctest.h>

#include "load/load_registry.h"
#include "registry/kernel_source.h"
#include "registry/registry.h"

using namespace dispatchctl;

TEST_CASE("kernel source: real builds' generated files, by path") {
  KernelSource s = parse_kernel_source("registered at ./build/aten/src/ATen/RegisterCPU_0.cpp:1307");
  CHECK(s.generator == KernelGenerator::RegisterKey);
  CHECK(static_cast<int>(s.shard) == 0);
  CHECK(static_cast<int>(s.predicted) == 0);
  CHECK(s.built_by_torchgen());
  s = parse_kernel_source("registered at ./torch/csrc/autograd/generated/VariableType_3.cpp:19");
  CHECK(s.generator == KernelGenerator::VariableType);
  CHECK(static_cast<int>(s.shard) == 3);
  CHECK(parse_kernel_source("registered at ./torch/csrc/autograd/generated/ADInplaceOrViewType_1.cpp:4").generator ==
        KernelGenerator::ADInplaceOrViewType);
  CHECK(parse_kernel_source("registered at ./torch/csrc/autograd/generated/TraceType_12.cpp:4").generator ==
        KernelGenerator::TraceType);
  // Hand-written: VariableTypeManual, a Register file outside the build folder, Python.
  CHECK(parse_kernel_source("registered at ./torch/csrc/autograd/VariableTypeManual.cpp:333").generator ==
        KernelGenerator::Unknown);
  CHECK(parse_kernel_source("registered at /src/torch_xla/csrc/RegisterXLA.cpp:3").generator == KernelGenerator::Unknown);
  CHECK(parse_kernel_source("registered at /usr/lib/python3/dist-packages/torch/_meta_registrations.py:53")
            .generator == KernelGenerator::Unknown);
  CHECK(parse_kernel_source("registered at ./build/aten/src/ATen/RegisterSchema.cpp:6").generator ==
        KernelGenerator::RegisterSchema);
  CHECK(!parse_kernel_source("registered at ./build/aten/src/ATen/RegisterSchema.cpp:6").generated());
  CHECK(parse_kernel_source("registered at ./aten/src/ATen/core/MetaFallbackKernel.cpp:23").generator ==
        KernelGenerator::MetaFallback);
  CHECK(parse_kernel_source("(new kernel)").generator == KernelGenerator::Unknown);
}

TEST_CASE("kernel source: what dispatchctl's torchgen writes is predicted") {
  const KernelSource applied = parse_kernel_source("registered at VariableType.cpp [torchgen autograd, native_functions.yaml]");
  CHECK(applied.generator == KernelGenerator::VariableType);
  CHECK(static_cast<int>(applied.predicted) == 1);
  CHECK(applied.generated());
  CHECK(!applied.built_by_torchgen());
  const KernelSource built =
      parse_kernel_source("registered at RegisterXPU.cpp [predicted: torchgen dispatch-entry, native_functions.yaml:9]");
  CHECK(built.generator == KernelGenerator::RegisterKey);
  CHECK(static_cast<int>(built.predicted) == 1);
  CHECK(predicted_source("RegisterCompositeExplicitAutogradNonFunctional.cpp").generator ==
        KernelGenerator::RegisterKey);
  // Carried from another real build: still that build's generated file.
  CHECK(parse_kernel_source("registered at ./build/aten/src/ATen/RegisterCUDA_0.cpp:5 (predicted: carried from the "
                            "2.6.0 CUDA build)")
            .built_by_torchgen());
}

TEST_CASE("kernel source: file, line and the short text") {
  const KernelPlace p = kernel_place("registered at ./build/aten/src/ATen/RegisterCPU_0.cpp:1307");
  CHECK(p.file == "./build/aten/src/ATen/RegisterCPU_0.cpp");
  CHECK(p.line == 1307);
  CHECK(p.file_name() == "RegisterCPU_0.cpp");
  CHECK(kernel_place("no file").file.empty());
  CHECK(place_text("registered at ./build/aten/src/ATen/RegisterCPU_0.cpp:1307") == "RegisterCPU_0.cpp:1307");
  CHECK(place_text("registered at VariableType.cpp [torchgen autograd, a/native_functions.yaml]") ==
        "VariableType.cpp [torchgen autograd, a/native_functions.yaml]");
}

TEST_CASE("kernel source: the autograd-not-implemented kernel, real or predicted") {
  Kernel k;
  k.signature = OptionalText();
  k.unboxed = false;
  k.source = parse_kernel_source("registered at ./torch/csrc/autograd/generated/VariableType_0.cpp:7");
  CHECK(is_autograd_not_implemented(k));
  k.source = parse_kernel_source("registered at VariableType.cpp [torchgen autograd, native_functions.yaml]");
  CHECK(is_autograd_not_implemented(k));
  k.source = parse_kernel_source("registered at ./torch/csrc/autograd/VariableTypeManual.cpp:1");
  CHECK(!is_autograd_not_implemented(k));  // a hand-written boxed kernel
  k.source = parse_kernel_source("registered at ./torch/csrc/autograd/generated/VariableType_0.cpp:7");
  k.unboxed = true;
  CHECK(!is_autograd_not_implemented(k));  // a real generated autograd kernel
}

TEST_CASE("kernel source: the registry works it out once, where a kernel is registered") {
  static_assert(sizeof(Kernel) <= 64);  // issue 14: a million kernels
  for (const char* source : {"builtin:2.14.1", "builtin:1.13.1"}) {
    INFO(source);
    auto reg = load_registry({source});
    std::size_t variable_type = 0, not_implemented = 0;
    for (const Operator& op : reg->operators())
      for (const Kernel& k : op.registrations) {
        CHECK(k.source_known);
        variable_type += k.source.generator == KernelGenerator::VariableType;
        not_implemented += is_autograd_not_implemented(k);
      }
    CHECK(variable_type > 1500);
    CHECK(not_implemented > 100);
    CHECK(not_implemented < variable_type);
    std::size_t meta = 0;
    for (const Fallback& fb : reg->fallbacks()) meta += fb.source.generator == KernelGenerator::MetaFallback;
    CHECK(meta == (std::string(source) == "builtin:2.14.1" ? 1 : 0));
  }
}
