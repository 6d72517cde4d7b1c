// The one reader of separated option values (--build-backends CPU,CUDA,
// -m 'python?import=torchvision,mylib', --keyset CPU,AutogradCPU,
// --tensor cpu:conj).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace dispatchctl {

// "CPU, CUDA," -> {"CPU", "CUDA"}: items are trimmed of spaces and one
// trailing comma is allowed (lists written by scripts end in one). An empty
// list, or an empty item elsewhere ("CPU,,CUDA"), is an InputError that
// starts with `what` (the option, e.g. "--build-backends") and names the item.
// `separator` replaces the comma (--tensor cpu:conj:neg). EmptyItems::Skip
// drops empty items instead, and an empty list is then no items: --keyset ''
// is a tensor without keys, as PyTorch's undefined tensor is.
enum class EmptyItems { Refuse, Skip };
std::vector<std::string> split_list(std::string_view list, std::string_view what, char separator = ',',
                                    EmptyItems empty = EmptyItems::Refuse);

}  // namespace dispatchctl
