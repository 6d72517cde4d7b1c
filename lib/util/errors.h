#pragma once

#include <stdexcept>

namespace dispatchctl {

// Bad input (file, key, operator, option): one line for the user that names
// the place and a fix; the CLI exits with code 2.
class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace dispatchctl
