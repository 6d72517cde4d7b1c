// Storage for the registry's strings (issue 14): one allocation per block
// instead of one per string, views that stay valid as the registry grows.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
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

// A Text that may be absent, in the size of a Text (issue 14: a kernel's
// optional signature, a million times): absent is a null data pointer, and a
// present empty text points at a static "".
class OptionalText {
 public:
  constexpr OptionalText() noexcept = default;
  constexpr OptionalText(std::nullopt_t) noexcept {}
  constexpr OptionalText(std::string_view text) noexcept : text_(text.data() ? Text(text) : Text("")) {}
  OptionalText(std::string&&) = delete;  // the view would dangle
  OptionalText(const std::optional<Text>& text) noexcept : OptionalText(text ? OptionalText(*text) : OptionalText()) {}

  constexpr bool has_value() const noexcept { return text_.data() != nullptr; }
  constexpr explicit operator bool() const noexcept { return has_value(); }
  constexpr const Text& operator*() const noexcept { return text_; }
  constexpr const Text* operator->() const noexcept { return &text_; }
  constexpr Text value_or(Text absent) const noexcept { return has_value() ? text_ : absent; }

 private:
  Text text_{};
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
