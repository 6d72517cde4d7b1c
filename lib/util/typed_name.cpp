#include "util/typed_name.h"

#include <cctype>

namespace dispatchctl {

std::string lowercase(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string id_form(std::string_view text) {
  std::string out = lowercase(text);
  for (char& c : out)
    if (c == ' ' || c == '-') c = '_';
  return out;
}

}  // namespace dispatchctl
