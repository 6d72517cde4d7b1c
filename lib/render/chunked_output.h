// Rendered text gathered in one fixed buffer and handed to a sink (stdout,
// in app/) each time it fills: a whole-registry job prints tens of megabytes
// while touching only the buffer's pages. Fresh pages cost a page fault each
// (~10 us on a VM), so the buffer is small, allocated once and never zeroed.
#pragma once

#include <cstring>
#include <functional>
#include <memory>
#include <string_view>

namespace dispatchctl {

class ChunkedOutput {
 public:
  using Sink = std::function<void(std::string_view)>;
  // 64 KiB: a pipe's whole buffer per write(2), and 16 pages to fault in
  // (a fresh page costs 10-30 us on this VM; 400 writes of the 25.7 MB job cost less).
  static constexpr size_t k_default_capacity = 64 << 10;

  explicit ChunkedOutput(Sink sink, size_t capacity = k_default_capacity);
  ChunkedOutput(const ChunkedOutput&) = delete;
  ChunkedOutput& operator=(const ChunkedOutput&) = delete;

  // Room for `n` bytes at the returned pointer (handing what is buffered to
  // the sink first when they would not fit); `commit` the end of what was written.
  char* reserve(size_t n) {
    if (capacity_ - size_ < n) make_room(n);
    return buffer_.get() + size_;
  }
  void commit(const char* end) { size_ = static_cast<size_t>(end - buffer_.get()); }
  void append(std::string_view text) {
    char* p = reserve(text.size());
    std::memcpy(p, text.data(), text.size());
    size_ += text.size();
  }
  // Hands what is buffered to the sink. Not done by the destructor: output
  // abandoned by an exception is not completed.
  void flush();
  size_t buffered() const { return size_; }

 private:
  void make_room(size_t n);

  Sink sink_;
  size_t capacity_;
  size_t size_ = 0;
  std::unique_ptr<char[]> buffer_;
};

}  // namespace dispatchctl
