// Rendered text gathered in one fixed buffer and handed to a sink (stdout,
// in app/) a full buffer at a time: a whole-registry job prints tens of
// megabytes while touching only the buffer's pages. Fresh pages cost a page
// fault each (10-30 us on this VM), so the buffer is small, allocated once
// and never zeroed. Every chunk but the last is exactly `capacity` bytes, so
// a sink over write(2) (app/'s write_stdout) writes a pipe's worth per call.
#pragma once

#include <cstring>
#include <functional>
#include <memory>
#include <string_view>

namespace dispatchctl {

class ChunkedOutput {
 public:
  using Sink = std::function<void(std::string_view)>;
  // 64 KiB: a pipe's whole buffer per write(2), and 17 pages to fault in
  // (with the headroom); 400 writes for the 25.7 MB job cost less than more pages.
  static constexpr size_t k_default_capacity = 64 << 10;
  // Room past `capacity` for the piece that crosses it (a table row is far shorter).
  static constexpr size_t k_headroom = 4 << 10;

  explicit ChunkedOutput(Sink sink, size_t capacity = k_default_capacity);
  ChunkedOutput(const ChunkedOutput&) = delete;
  ChunkedOutput& operator=(const ChunkedOutput&) = delete;

  // Room for `n` bytes at the returned pointer; `commit` the end of what was
  // written there (full chunks are then handed on).
  char* reserve(size_t n) {
    if (n > room()) make_room(n);
    return buffer_.get() + size_;
  }
  void commit(const char* end) {
    size_ = static_cast<size_t>(end - buffer_.get());
    if (size_ >= capacity_) hand_on_full_chunks();
  }
  void append(std::string_view text);
  // Hands what is buffered to the sink. Not done by the destructor: output
  // abandoned by an exception is not completed.
  void flush();
  size_t buffered() const { return size_; }

 private:
  size_t room() const { return allocated_ - size_; }
  void make_room(size_t n);
  void hand_on_full_chunks();

  Sink sink_;
  size_t capacity_;
  size_t allocated_;  // capacity_ + headroom, or more after a piece larger than that
  size_t size_ = 0;   // < capacity_ between calls
  std::unique_ptr<char[]> buffer_;
};

}  // namespace dispatchctl
