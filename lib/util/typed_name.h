// Names as users type them (a preset, a device, a rule tag, a kernel kind),
// put in the form the tools compare them in. ASCII only: PyTorch's names are.
#pragma once

#include <string>
#include <string_view>

namespace dispatchctl {

// "Sparse_CPU" -> "sparse_cpu".
std::string lowercase(std::string_view text);
// "Backend Select" or "backend-select" -> "backend_select": a typed name as an id.
std::string id_form(std::string_view text);

}  // namespace dispatchctl
