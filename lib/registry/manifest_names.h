// Values of manifest fields that name an enum of the model, shared by the
// manifest's reader (manifest.cpp) and writer (manifest_write.cpp).
#pragma once

#include <string_view>

#include "registry/registry.h"

namespace dispatchctl {

// "then" values in KernelThen order (Default has none).
constexpr std::string_view k_then_names[] = {"", "return", "redispatch", "call", "decompose", "raise", "autograd"};
// "generated_call"'s kinds, named by generated_call_kind_id.
constexpr GeneratedCallKind k_generated_call_kinds[] = {
    GeneratedCallKind::StructuredOut, GeneratedCallKind::AutogenOut, GeneratedCallKind::AutogenFunctional};

}  // namespace dispatchctl
