// Which refusal `show` names when one edit gives several: torchgen stops at
// the first it raises, and within torchgen.gen it reads every entry
// (FunctionSchema's and NativeFunction's asserts) before it groups them and
// long before it writes RegisterFunctionalization (the twelfth corpus).
#include <doctest/doctest.h>

#include <algorithm>

#include "builtin/builtin_catalogues.h"
#include "torchgen/apply.h"
#include "torchgen/refusals.h"
#include "torchgen_support.h"
#include "util/errors.h"

using namespace dispatchctl;

namespace {

std::string edited_refusal(const std::string& from, const std::string& to, const std::string& append = "") {
  torchgen::TorchgenInputs inputs = test::torchgen_inputs("2.14.1");
  std::string& text = inputs.native_functions.text;
  const size_t at = text.find(from);
  REQUIRE_MESSAGE(at != std::string::npos, from);
  text.replace(at, from.size(), to);
  text += append;
  try {
    torchgen::predict_from_inputs(inputs, *builtin_catalogue("2.14.1"), {});
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("refusal order: an out= entry's own assert before the in-place operator it leaves ungrouped") {
  // abs.out's return lost its annotation: FunctionSchema refuses abs.out as
  // it is read; abs_ would be refused by RegisterFunctionalization, later.
  const std::string line = edited_refusal("- func: abs.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)",
                                          "- func: abs.out(Tensor self, *, Tensor(a!) out) -> Tensor");
  CHECK(line.find("Out arguments must have matching return Tensor") != std::string::npos);
}

TEST_CASE("refusal order: an out= that became a view before the in-place operator it leaves ungrouped") {
  const std::string line = edited_refusal("- func: abs.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)",
                                          "- func: abs.out(Tensor self, *, Tensor(a) out) -> Tensor(a)");
  CHECK(line.find("abs.out appears to be a new operator that aliases its inputs") != std::string::npos);
}

TEST_CASE("refusal order: a _foreach_ entry's device_check, read first, before the next entry's schema") {
  const std::string line = edited_refusal(
      "", "", "\n- func: _foreach_softsign(Tensor[] self) -> Tensor[]\n  variants: function\n\n"
              "- func: _foreach_softsign_(Tensor[] self) -> ()\n  variants: function\n");
  CHECK(line.find("foreach kernels fall back to slow path") != std::string::npos);
}
