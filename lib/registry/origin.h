// Where a registration came from (issue 14: 16 bytes, no text per
// registration). A manifest entry's JSON pointer is recomputed from its
// ordinals when printed; the file name, and the rare pointer given as text
// (a fallback's), are interned once per process.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "registry/string_pool.h"

namespace dispatchctl {

class Origin {
 public:
  Origin() = default;
  // FILE with a JSON pointer ("" if none) and a line (0 = unknown).
  Origin(std::string_view file, std::string_view pointer, int line);
  // "/operators/OPERATOR/schema" and "/operators/OPERATOR/kernels/KERNEL" of a manifest.
  static Origin manifest_schema(std::string_view file, std::uint32_t op);
  static Origin manifest_kernel(std::string_view file, std::uint32_t op, std::uint32_t kernel);

  Text file() const;  // lives as long as the process
  std::string pointer() const;
  bool has_pointer() const { return kind_ != Kind::Plain || text_pointer_; }
  int line() const { return kind_ == Kind::Plain ? static_cast<int>(number_) : 0; }
  // A manifest kernel's entry: its operator's and its own ordinal ("/operators/OP/kernels/KERNEL").
  struct KernelEntry {
    std::uint32_t op = 0, kernel = 0;
  };
  std::optional<KernelEntry> manifest_kernel_entry() const {
    if (kind_ != Kind::ManifestKernel) return std::nullopt;
    return KernelEntry{number_, kernel_};
  }
  std::string to_string() const;  // file:line or file: pointer or file

  struct Interned;  // a file name and a pointer given as text

 private:
  enum class Kind : std::uint8_t { Plain, ManifestSchema, ManifestKernel };
  const Interned* where_ = nullptr;  // null: no file
  std::uint32_t number_ = 0;         // Plain: the line; else the operator's ordinal
  std::uint32_t kernel_ : 28 = 0;    // ManifestKernel: the kernel's ordinal
  std::uint32_t text_pointer_ : 1 = 0;  // Plain: where_ holds a pointer
  Kind kind_ : 3 = Kind::Plain;
};

}  // namespace dispatchctl
