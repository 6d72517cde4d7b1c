// The TLS guard and redispatch mask of the kinds of kernels trace tells apart
// by their functionality key (what a kernel at AutogradCPU, ADInplaceOrView,
// Conjugate, Autocast … does by default): the kinds are the one table
// table/functionality_kinds.h, which the outcome model reads too.
#pragma once

#include <string_view>

#include "table/functionality_kinds.h"
#include "trace/trace.h"

namespace dispatchctl {

// The guard of a kind, resolved for the row's key and the release's keys.
TlsGuard guard_of(const Catalogue& cat, const FunctionalityKindRow& kind, Key row_key);
// The FULL_AFTER mask a kind redispatches with (§5.2).
KeySet redispatch_mask(const Catalogue& cat, const FunctionalityKindRow* kind, Key k);

}  // namespace dispatchctl
