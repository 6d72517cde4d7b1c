// Compact key lists for humans: a whole per-backend block collapses to
// "Sparse*" (all backends) and runs stay in table order.
#pragma once

#include <string>
#include <vector>

#include "keys/catalogue.h"

namespace dispatchctl {

// e.g. "CPU CUDA Quantized* SparseCsr{CPU,CUDA} AutogradOther"
std::string summarize_keys(const Catalogue& cat, const std::vector<Key>& keys);
// Words of a string wrapped to `width` columns, continuation lines indented.
std::string wrap_words(const std::string& text, size_t first_column, size_t indent, size_t width);

}  // namespace dispatchctl
