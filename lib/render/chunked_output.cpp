#include "render/chunked_output.h"

namespace dispatchctl {

ChunkedOutput::ChunkedOutput(Sink sink, size_t capacity)
    : sink_(std::move(sink)), capacity_(capacity), buffer_(std::make_unique_for_overwrite<char[]>(capacity)) {}

void ChunkedOutput::flush() {
  if (size_ == 0) return;
  sink_(std::string_view(buffer_.get(), size_));
  size_ = 0;
}

void ChunkedOutput::make_room(size_t n) {
  flush();
  if (n <= capacity_) return;
  // A single piece larger than the buffer (not a table row): grow to fit it.
  buffer_ = std::make_unique_for_overwrite<char[]>(n);
  capacity_ = n;
}

}  // namespace dispatchctl
