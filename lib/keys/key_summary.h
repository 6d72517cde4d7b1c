// Compact key lists for humans: a whole per-backend block collapses to
// "Sparse*" (all backends) and runs stay in table order.
#pragma once

#include <string>
#include <vector>

#include "keys/catalogue.h"
#include "util/wrap.h"  // wrap_words, used with these summaries

namespace dispatchctl {

// e.g. "CPU CUDA Quantized* SparseCsr{CPU,CUDA} AutogradOther"
std::string summarize_keys(const Catalogue& cat, const std::vector<Key>& keys);

}  // namespace dispatchctl
