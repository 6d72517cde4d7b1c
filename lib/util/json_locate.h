// Where a JSON pointer (RFC 6901) points in a JSON text: the line and column
// of the value's first character. Manifest registrations carry a pointer
// (Origin::pointer); findings need a line for editors and code scanning.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

namespace dispatchctl {

struct TextPosition {
  int line = 0;    // 1-based
  int column = 0;  // 1-based, in bytes
};

class JsonLocator {
 public:
  // Scans the text once; a text that is not valid JSON locates what it
  // could read before the error.
  explicit JsonLocator(std::string_view text);
  // "" is the whole document; "/operators/3/kernels/0" a nested value.
  std::optional<TextPosition> locate(std::string_view pointer) const;

 private:
  std::unordered_map<std::string, TextPosition> positions_;
};

}  // namespace dispatchctl
