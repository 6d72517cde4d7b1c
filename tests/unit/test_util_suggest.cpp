// Did-you-mean ranking (issue 24 item 9): at equal distance a candidate the
// word starts or that starts the word comes first, then the word's own
// overload family, then the longer common prefix. Names are real operators
// of the built-in registries.
#include <doctest/doctest.h>

#include "util/suggest.h"

using namespace dispatchctl;

TEST_CASE("suggest: a key held down names the operator it starts, not a neighbour") {
  // Both are one edit from 'aten::addd'; candidates in registry order, addr first.
  const std::vector<std::string_view> names{"aten::addr", "aten::addr.out", "aten::add.Tensor", "aten::add"};
  CHECK(did_you_mean("aten::addd", names) == "; did you mean 'aten::add'?");
  // The other order gives the same answer: the rank decides, not the order.
  const std::vector<std::string_view> reversed{"aten::add", "aten::add.Tensor", "aten::addr.out", "aten::addr"};
  CHECK(did_you_mean("aten::addd", reversed) == "; did you mean 'aten::add'?");
}

TEST_CASE("suggest: an overload typo stays in its family") {
  const std::vector<std::string_view> names{"aten::addr.Tensor", "aten::add.Tensor", "aten::add.Scalar"};
  CHECK(did_you_mean("aten::add.Tensr", names) == "; did you mean 'aten::add.Tensor'?");
  // 'aten::ad' -> 'aten::add' (prefix), not 'aten::pad' (same distance).
  CHECK(did_you_mean("aten::ad", {"aten::pad", "aten::add"}) == "; did you mean 'aten::add'?");
}
