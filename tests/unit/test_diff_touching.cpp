// Issue 33: `diff --touching FILE`: what a backend's manifest registers, and
// the operators whose generated composites reach those at its keys. In
// builtin:2.14.1, aten::silu is structured (its CompositeExplicitAutograd-
// NonFunctional kernel calls aten::silu.out, torchgen's generated call), so a
// backend registering silu.out at PrivateUse1 touches aten::silu there, and
// aten::silu_ (which calls silu.out too), but not aten::add.Tensor.
#include <doctest/doctest.h>

#include "diff/touching.h"
#include "load/load_registry.h"
#include "test_support.h"

using namespace dispatchctl;

TEST_CASE("touching: a manifest's operators and the composites that reach them") {
  const std::string manifest = std::string(DISPATCHCTL_SOURCE_DIR) + "/tests/cli/fixtures/migration/npu_2.14.1.json";
  auto before = load_registry({"builtin:2.14.1"});
  auto after = load_registry({"builtin:2.14.1", manifest});
  const auto touched = touching_operators(*before, *after, {manifest}, {});
  CHECK(touched.count("npu::fused_gelu"));
  CHECK(touched.count("aten::mm"));
  CHECK(touched.count("aten::silu.out"));
  CHECK(touched.count("aten::silu"));   // generated composite -> silu.out
  CHECK(touched.count("aten::silu_"));  // likewise
  CHECK(!touched.count("aten::add.Tensor"));
  CHECK(!touched.count("aten::gelu"));
  // Followed only at the keys asked for: at CPU, silu has its own kernel.
  const auto at_cpu = touching_operators(*before, *after, {manifest}, {"CPU"});
  CHECK(at_cpu.count("aten::silu.out"));
  CHECK(!at_cpu.count("aten::silu"));
  CHECK(test::input_error_of([&] { touching_operators(*before, *before, {manifest}, {}); })
            .find("registers nothing on either side") != std::string::npos);
}
