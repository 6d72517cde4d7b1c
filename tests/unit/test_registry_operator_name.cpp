// The parts of an operator name (registry/operator_name.h), as PyTorch spells them.
#include <doctest/doctest.h>

#include "registry/operator_name.h"

using namespace dispatchctl;

TEST_CASE("operator names: namespace, base name, overload") {
  CHECK(without_namespace("aten::add.Tensor") == "add.Tensor");
  CHECK(without_namespace("add.Tensor") == "add.Tensor");
  CHECK(bare_operator_name("aten::add.Tensor") == "add");
  CHECK(without_overload("aten::add.Tensor") == "aten::add");
  CHECK(without_overload("aten::add") == "aten::add");
  CHECK(qualified_name("add.Tensor") == "aten::add.Tensor");
  CHECK(qualified_name("my::op") == "my::op");
  CHECK(is_qualified_operator_name("aten::add.Tensor"));
  CHECK_FALSE(is_qualified_operator_name("add.Tensor"));
  CHECK_FALSE(is_qualified_operator_name("::add"));
}

TEST_CASE("view_copy_name: a view's NAME_copy keeps its namespace and overload") {
  // PyTorch 2.14.1's native_functions.yaml: split_copy.Tensor, diagonal_copy, _indices_copy.
  CHECK(view_copy_name("aten::split.Tensor") == "aten::split_copy.Tensor");
  CHECK(view_copy_name("split.Tensor") == "split_copy.Tensor");
  CHECK(view_copy_name("diagonal") == "diagonal_copy");
  CHECK(view_copy_name("aten::_indices") == "aten::_indices_copy");
  // A dot in the namespace part is not an overload.
  CHECK(view_copy_name("my.ns::view.int") == "my.ns::view_copy.int");
}
