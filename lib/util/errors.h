#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

namespace dispatchctl {

// Where in an input file a problem is: a position ("FILE:LINE:COL"), a JSON
// pointer, both, or only the file.
struct InputLocation {
  InputLocation(std::string in_file, std::string at = {}, int at_line = 0, int at_column = 0)
      : file(std::move(in_file)), pointer(std::move(at)), line(at_line), column(at_column) {}
  std::string file;
  std::string pointer;  // "/operators/3/schema"; "" for none
  int line = 0;         // 1-based; 0: not known
  int column = 0;
};

// Bad input (file, key, operator, option): one line for the user that names
// the place and a fix; the CLI exits with code 2. One made with a location
// keeps it apart from what is wrong, so a caller (check's findings) reads the
// place without parsing the line back.
class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
  // Renders "FILE:LINE:COL: POINTER: DETAIL", each part only when known.
  InputError(InputLocation where, std::string detail)
      : std::runtime_error(render(where, detail)), location_(std::move(where)), detail_(std::move(detail)) {}

  const std::optional<InputLocation>& location() const noexcept { return location_; }
  // What is wrong, without the place (the whole line when there is no location).
  std::string detail() const { return location_ ? detail_ : std::string(what()); }

 private:
  static std::string render(const InputLocation& where, const std::string& detail) {
    std::string line = where.file;
    if (where.line > 0) line += ":" + std::to_string(where.line) + ":" + std::to_string(where.column);
    if (!where.pointer.empty()) line += ": " + where.pointer;
    return line + ": " + detail;
  }

  std::optional<InputLocation> location_;
  std::string detail_;
};

}  // namespace dispatchctl
