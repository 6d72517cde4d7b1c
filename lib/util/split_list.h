// The one reader of comma-separated option values (--build-backends CPU,CUDA,
// -m 'python?import=torchvision,mylib').
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace dispatchctl {

// "CPU, CUDA," -> {"CPU", "CUDA"}: items are trimmed of spaces and one
// trailing comma is allowed (lists written by scripts end in one). An empty
// list, or an empty item elsewhere ("CPU,,CUDA"), is an InputError that
// starts with `what` (the option, e.g. "--build-backends") and names the item.
std::vector<std::string> split_list(std::string_view list, std::string_view what);

}  // namespace dispatchctl
