// Storage for the registry's strings (issue 14): one allocation per block
// instead of one per string, views that stay valid as the registry grows.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace dispatchctl {

// A string a Registry holds: a view into its StringPool or into the built-in
// pack (which lives as long as the process). Assigning a temporary
// std::string does not compile: the view would dangle before it is kept.
// It converts and concatenates like the std::string it replaced.
struct Text : std::string_view {
  using std::string_view::string_view;
  constexpr Text(std::string_view view) noexcept : std::string_view(view) {}
  Text(const std::string& s) noexcept : std::string_view(s) {}
  Text(std::string&&) = delete;
  operator std::string() const { return std::string(data(), size()); }
};

inline std::string operator+(std::string left, Text right) { return left.append(right); }
inline std::string operator+(Text left, const std::string& right) { return std::string(left).append(right); }
inline std::string operator+(const char* left, Text right) { return std::string(left).append(right); }
inline std::string operator+(Text left, const char* right) { return std::string(left).append(right); }
inline std::string operator+(Text left, char right) { return std::string(left) + right; }

// Append-only chars; a kept view lives as long as the pool.
class StringPool {
 public:
  std::string_view keep(std::string_view text);
  std::size_t bytes() const { return bytes_; }  // allocated for blocks

 private:
  std::vector<std::unique_ptr<char[]>> blocks_;
  char* next_ = nullptr;
  std::size_t left_ = 0, bytes_ = 0;
};

}  // namespace dispatchctl
