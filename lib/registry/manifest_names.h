// Values of manifest fields that name an enum of the model, shared by the
// manifest's reader (manifest.cpp) and writer (manifest_write.cpp).
#pragma once

#include <iterator>
#include <string_view>

#include "registry/registry.h"

namespace dispatchctl {

// "then" values in KernelThen order (Default has none).
// The one list of them: the manifest's reader and writer, trace's "declared" words and its help.
constexpr std::string_view k_then_names[] = {"", "return", "redispatch", "call", "decompose", "raise", "autograd"};
static_assert(std::size(k_then_names) == static_cast<std::size_t>(KernelThen::Autograd) + 1);
// "generated_call"'s kinds, named by generated_call_kind_id.
constexpr GeneratedCallKind k_generated_call_kinds[] = {
    GeneratedCallKind::StructuredOut, GeneratedCallKind::AutogenOut, GeneratedCallKind::AutogenFunctional};

}  // namespace dispatchctl
