#include "registry/kernel_source.h"

#include <cctype>

namespace dispatchctl {
namespace {

constexpr std::string_view k_registered_at = "registered at ";

struct Generated {
  std::string_view stem;  // the file name without shard and ".cpp"
  KernelGenerator generator;
  std::string_view built_in;  // where a real build writes it
};
// The files torchgen and tools/autograd generate (docs/torchgen-rules.md §3);
// Register<Key> is every stem starting with "Register" but RegisterSchema.
constexpr Generated k_generated[] = {
    {"RegisterSchema", KernelGenerator::RegisterSchema, ""},  // anywhere, as the schema's text may name it
    {"VariableType", KernelGenerator::VariableType, "torch/csrc/autograd/generated/"},
    {"ADInplaceOrViewType", KernelGenerator::ADInplaceOrViewType, "torch/csrc/autograd/generated/"},
    {"TraceType", KernelGenerator::TraceType, "torch/csrc/autograd/generated/"},
};

// "RegisterCPU_0" -> "RegisterCPU" and shard 0.
std::string_view strip_shard(std::string_view stem, int& shard) {
  size_t digits = stem.size();
  while (digits > 0 && std::isdigit(static_cast<unsigned char>(stem[digits - 1]))) --digits;
  if (digits == stem.size() || digits < 2 || stem[digits - 1] != '_' || stem.size() - digits > 2) return stem;
  shard = 0;
  for (size_t i = digits; i < stem.size(); ++i) shard = shard * 10 + (stem[i] - '0');
  return stem.substr(0, digits - 1);
}

std::string_view stem_of(std::string_view file_name, int& shard) {
  if (!file_name.ends_with(".cpp")) return {};
  return strip_shard(file_name.substr(0, file_name.size() - 4), shard);
}

KernelSource source_of(std::string_view path, bool predicted) {
  KernelSource source;
  source.predicted = predicted;
  const KernelPlace place{path, 0};
  int shard = -1;
  const std::string_view stem = stem_of(place.file_name(), shard);
  if (stem == "MetaFallbackKernel") {
    source.generator = KernelGenerator::MetaFallback;
    return source;
  }
  // A real build writes them to these folders (under its build folder:
  // ./build/aten/src/ATen/); a file of the same name elsewhere (an
  // out-of-tree backend's own RegisterXLA.cpp) is not torchgen's.
  auto built = [&](std::string_view folder) { return predicted || path.find(folder) != std::string_view::npos; };
  for (const Generated& g : k_generated)
    if (stem == g.stem && built(g.built_in)) source.generator = g.generator;
  if (source.generator == KernelGenerator::Unknown && stem.starts_with("Register") && stem.size() > 8 &&
      built("aten/src/ATen/Register"))
    source.generator = KernelGenerator::RegisterKey;
  if (source.generator != KernelGenerator::Unknown && shard >= 0 && shard < KernelSource::k_no_shard)
    source.shard = static_cast<std::uint8_t>(shard);
  return source;
}

}  // namespace

std::string_view KernelPlace::file_name() const {
  const size_t slash = file.rfind('/');
  return slash == std::string_view::npos ? file : file.substr(slash + 1);
}

KernelPlace kernel_place(std::string_view debug) {
  const size_t at = debug.find(k_registered_at);
  if (at == std::string_view::npos) return {};
  debug.remove_prefix(at + k_registered_at.size());
  const size_t end = debug.find_first_of(": [");
  KernelPlace place{debug.substr(0, end), 0};
  if (end != std::string_view::npos && debug[end] == ':')
    for (size_t i = end + 1; i < debug.size() && std::isdigit(static_cast<unsigned char>(debug[i])) &&
                             place.line < 100'000'000;
         ++i)
      place.line = place.line * 10 + (debug[i] - '0');
  return place;
}

std::string_view place_text(std::string_view debug) {
  if (!debug.starts_with(k_registered_at)) return debug;
  debug.remove_prefix(k_registered_at.size());
  const size_t end = debug.find_first_of(" [");
  if (const size_t slash = debug.substr(0, end).rfind('/'); slash != std::string_view::npos)
    debug.remove_prefix(slash + 1);
  return debug;
}

KernelSource parse_kernel_source(std::string_view debug) {
  const KernelPlace place = kernel_place(debug);
  if (place.file.empty()) return {};
  // apply.cpp's and backend_yaml's "[torchgen RULE, YAML]", add_backends' "[predicted: torchgen …]".
  const bool predicted = debug.find(" [torchgen ") != std::string_view::npos ||
                         debug.find(" [predicted: torchgen ") != std::string_view::npos;
  return source_of(place.file, predicted);
}

KernelSource predicted_source(std::string_view generated_file) { return source_of(generated_file, true); }

}  // namespace dispatchctl
