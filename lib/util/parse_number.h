// Numbers read from input: the whole text must be the number and it must fit
// in T, else nullopt (the caller says where in its input and what to write
// instead). std::from_chars, never atoi/stoi/strtol: no locale, no
// exceptions, no undefined behaviour on overflow.
#pragma once

#include <charconv>
#include <optional>
#include <string_view>
#include <system_error>

namespace dispatchctl {

template <typename T>
std::optional<T> parse_integer(std::string_view text, T min_value, T max_value) {
  T value{};
  const char* end = text.data() + text.size();
  const auto [stop, ec] = std::from_chars(text.data(), end, value);
  if (ec != std::errc() || stop != end || value < min_value || value > max_value) return std::nullopt;
  return value;
}

}  // namespace dispatchctl
