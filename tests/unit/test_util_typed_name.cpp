// Names as users type them, in the form the tools compare them in.
#include <doctest/doctest.h>

#include "util/typed_name.h"

using namespace dispatchctl;

TEST_CASE("typed_name: lowercase folds ASCII case only") {
  CHECK(lowercase("Sparse_CPU") == "sparse_cpu");
  CHECK(lowercase("cuda:0") == "cuda:0");
  CHECK(lowercase("Ä") == "Ä");  // bytes above 127 stay as they are
}

TEST_CASE("typed_name: id_form turns spaces and dashes into underscores") {
  CHECK(id_form("Backend Select") == "backend_select");
  CHECK(id_form("backend-select") == "backend_select");
  CHECK(id_form("CEANF") == "ceanf");
}
