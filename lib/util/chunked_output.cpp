#include "util/chunked_output.h"

#include <algorithm>

namespace dispatchctl {

ChunkedOutput::ChunkedOutput(Sink sink, size_t capacity)
    : sink_(std::move(sink)),
      capacity_(capacity),
      allocated_(capacity + k_headroom),
      buffer_(std::make_unique_for_overwrite<char[]>(allocated_)) {}

void ChunkedOutput::append(std::string_view text) {
  while (!text.empty()) {
    const size_t take = std::min(text.size(), capacity_ - size_);
    std::memcpy(buffer_.get() + size_, text.data(), take);
    size_ += take;
    text.remove_prefix(take);
    if (size_ == capacity_) hand_on_full_chunks();
  }
}

void ChunkedOutput::flush() {
  if (size_ == 0) return;
  sink_(std::string_view(buffer_.get(), size_));
  size_ = 0;
}

void ChunkedOutput::hand_on_full_chunks() {
  size_t start = 0;
  for (; size_ - start >= capacity_; start += capacity_) sink_(std::string_view(buffer_.get() + start, capacity_));
  std::memmove(buffer_.get(), buffer_.get() + start, size_ - start);
  size_ -= start;
}

// A single piece larger than the headroom (not a table row): the buffer grows to hold it.
void ChunkedOutput::make_room(size_t n) {
  auto bigger = std::make_unique_for_overwrite<char[]>(size_ + n);
  std::memcpy(bigger.get(), buffer_.get(), size_);
  buffer_ = std::move(bigger);
  allocated_ = size_ + n;
}

}  // namespace dispatchctl
