// The one way lists become a line of text in messages and reports.
#include <doctest/doctest.h>

#include <string>
#include <string_view>
#include <vector>

#include "util/join.h"

using namespace dispatchctl;

TEST_CASE("join: items between separators, none around") {
  CHECK(join(std::vector<std::string>{"CPU", "CUDA", "Meta"}) == "CPU, CUDA, Meta");
  CHECK(join(std::vector<std::string_view>{"a"}) == "a");
  CHECK(join(std::vector<std::string>{}).empty());
  CHECK(join(std::vector<std::string>{"a", "b"}, " | ") == "a | b");
}

TEST_CASE("join: text_of turns items into text") {
  CHECK(join(std::vector<int>{1, 2}, ", ", [](int n) { return std::to_string(n) + ".x"; }) == "1.x, 2.x");
}
