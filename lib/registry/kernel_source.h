// Where a registration's code comes from (issue 32): which torchgen generator
// wrote it, which shard, whether dispatchctl's torchgen model predicted it
// rather than a real build. Worked out once, where the registration enters a
// Registry (Registry::impl / fallback parse the debug text when the loader
// did not set it), so nothing outside registry/ reads a debug string for it.
// Two bytes: a large manifest holds a million kernels (issue 14).
#pragma once

#include <cstdint>
#include <string_view>

namespace dispatchctl {

enum class KernelGenerator : std::uint8_t {
  Unknown,              // hand-written C++ or Python, or a file none of these
  RegisterKey,          // torchgen's Register<Key>.cpp (RegisterCPU_0.cpp, a backend stub's RegisterXLA.cpp)
  RegisterSchema,       // torchgen's RegisterSchema.cpp: schemas, no kernels
  VariableType,         // tools/autograd's VariableType_N.cpp: the generated autograd kernels
  ADInplaceOrViewType,  // tools/autograd's ADInplaceOrViewType_N.cpp
  TraceType,            // tools/autograd's TraceType_N.cpp
  MetaFallback,         // not generated: PyTorch's own Meta backend fallback (MetaFallbackKernel.cpp)
};

struct KernelSource {
  static constexpr std::uint8_t k_no_shard = 0x7f;
  KernelGenerator generator = KernelGenerator::Unknown;
  std::uint8_t shard : 7 = k_no_shard;  // VariableType_3.cpp -> 3
  // Made by dispatchctl's torchgen model (`-m torchgen:`, a predicted build's
  // `[predicted: torchgen …]`), not read from a real build's dump.
  std::uint8_t predicted : 1 = 0;

  // torchgen wrote it (in a real build or predicted): a generator other than
  // RegisterSchema's and the Meta fallback's file.
  bool generated() const {
    return generator != KernelGenerator::Unknown && generator != KernelGenerator::RegisterSchema &&
           generator != KernelGenerator::MetaFallback;
  }
  // A real build's generated file: what a torchgen prediction replaces.
  bool built_by_torchgen() const { return generated() && !predicted; }
};
static_assert(sizeof(KernelSource) == 2);

// The one reader of a registration's debug text for its source:
// "registered at ./build/aten/src/ATen/RegisterCPU_0.cpp:1307",
// "registered at VariableType.cpp [torchgen autograd, derivatives.yaml]" …
KernelSource parse_kernel_source(std::string_view debug);
// What the torchgen loaders set directly: the generated file they name
// ("VariableType.cpp", "RegisterCPU.cpp"), predicted.
KernelSource predicted_source(std::string_view generated_file);

// The file a registration's debug text names, as written
// ("./build/aten/src/ATen/RegisterCPU_0.cpp"; "" when it names none), and its line (0: none).
struct KernelPlace {
  std::string_view file;
  int line = 0;
  std::string_view file_name() const;  // "RegisterCPU_0.cpp"
};
KernelPlace kernel_place(std::string_view debug);

// The registration's text from its file name on: "RegisterCPU_0.cpp:1307",
// "VariableType.cpp [torchgen autograd, derivatives.yaml]" (the text itself
// when it names no file).
std::string_view place_text(std::string_view debug);

}  // namespace dispatchctl
