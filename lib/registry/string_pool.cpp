#include "registry/string_pool.h"

#include <algorithm>
#include <cstring>

namespace dispatchctl {

std::string_view StringPool::keep(std::string_view text) {
  if (text.empty()) return {};
  if (text.size() > left_) {
    // Blocks grow with the pool (a few kB for `show OP`, 1 MiB for a large
    // manifest), so the slack at the end of each stays small.
    constexpr std::size_t k_first = 4096, k_largest = std::size_t{1} << 20;
    const std::size_t size = std::max(text.size(), std::min(k_largest, std::max(k_first, bytes_)));
    blocks_.push_back(std::make_unique_for_overwrite<char[]>(size));
    next_ = blocks_.back().get();
    left_ = size;
    bytes_ += size;
  }
  std::memcpy(next_, text.data(), text.size());
  const std::string_view kept(next_, text.size());
  next_ += text.size();
  left_ -= text.size();
  return kept;
}

}  // namespace dispatchctl
