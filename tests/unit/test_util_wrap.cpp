// The one wrapping helper of the text renderers.
#include <doctest/doctest.h>

#include <sstream>

#include "util/wrap.h"

using namespace dispatchctl;

namespace {
size_t longest_line(const std::string& text) {
  std::istringstream in(text);
  size_t longest = 0;
  for (std::string line; std::getline(in, line);) longest = std::max(longest, line.size());
  return longest;
}
}  // namespace

TEST_CASE("wrap: words wrap at spaces, continuation lines indented") {
  CHECK(wrap_words("aaa bbb ccc ddd", 0, 2, 8) == "aaa bbb\n  ccc\n  ddd");
  CHECK(wrap_words("short", 4, 4, 80) == "short");
  // Leading spaces are kept: callers pad with them.
  CHECK(wrap_words("   x", 0, 3, 80) == "   x");
}

TEST_CASE("wrap: a word longer than a line breaks after a directory, never mid-name") {
  const std::string path = "registered at /very/long/build/directory/aten/src/ATen/native/cpu/RegisterCPU_0.cpp:1307";
  const std::string wrapped = wrap_words(path, 0, 4, 40);
  CHECK(longest_line(wrapped) <= 40);
  CHECK(wrapped.find("RegisterCPU_0.cpp:1307") != std::string::npos);
  CHECK(wrapped.find("\n    ") != std::string::npos);
  // A name that cannot break at all stays whole on its own line.
  CHECK(wrap_words("x " + std::string(50, 'y'), 0, 2, 20) == "x\n  " + std::string(50, 'y'));
}

TEST_CASE("wrap: each line of a multi-line text is wrapped and indented") {
  const std::string error = "Could not run 'demo::op' with arguments from the 'Meta' backend. This could be\nsecond line";
  const std::string wrapped = wrap_words("   " + error, 0, 3, 40);
  CHECK(longest_line(wrapped) <= 40);
  CHECK(wrapped.find("\n   second line") != std::string::npos);
}
