// Text for people at a fixed width: words wrapped at spaces, continuation
// lines indented. The one wrapping helper of every text renderer; PyTorch's
// machine formats (json, torch-table, torch-state) never go through it.
#pragma once

#include <cstddef>
#include <string>

namespace dispatchctl {

// The width text renderers wrap to when nothing else is known.
inline constexpr size_t k_default_width = 80;

// `text` wrapped to `width` columns. The text starts at `first_column` (what
// the caller already printed on the line); continuation lines start with
// `indent` spaces. A word longer than a whole line (a path, a key set) is
// broken after '/', ',', '(' or '::' where it can be, never mid-name
// otherwise. '\n' in the text starts a new line at `indent`, so a
// multi-line message (PyTorch's error text) keeps its lines.
std::string wrap_words(const std::string& text, size_t first_column, size_t indent, size_t width);

}  // namespace dispatchctl
