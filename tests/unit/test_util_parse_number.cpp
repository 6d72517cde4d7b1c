// util/parse_number.h: the whole text is the number and the number fits.
#include <doctest/doctest.h>

#include <cstdint>
#include <limits>

#include "util/parse_number.h"

using dispatchctl::parse_integer;

TEST_CASE("parse_integer: the whole text, in range, else nothing") {
  constexpr int k_max = std::numeric_limits<int>::max();
  CHECK(parse_integer<int>("2", 0, k_max) == 2);
  CHECK(parse_integer<int>("2147483647", 0, k_max) == k_max);
  CHECK_FALSE(parse_integer<int>("2147483648", 0, k_max));   // past int: no wrap-around
  CHECK_FALSE(parse_integer<int>("99999999999", 0, k_max));  // the schema size of issue 32
  CHECK_FALSE(parse_integer<int>("-1", 0, k_max));           // below the range given
  CHECK_FALSE(parse_integer<int>("12abc", 0, k_max));        // trailing text
  CHECK_FALSE(parse_integer<int>(" 12", 0, k_max));          // leading space
  CHECK_FALSE(parse_integer<int>("", 0, k_max));
  CHECK(parse_integer<std::int64_t>("-9223372036854775808", std::numeric_limits<std::int64_t>::min(),
                                    std::numeric_limits<std::int64_t>::max()) ==
        std::numeric_limits<std::int64_t>::min());
  CHECK_FALSE(parse_integer<std::size_t>("18446744073709551616", 0, std::numeric_limits<std::size_t>::max()));
}
