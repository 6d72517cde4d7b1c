// Python kernels are a kind of their own (issue 11 item 7). Expected values
// come from the real dumps' READMEs (tests/data/torch-*/README.md):
// 2.14.1 has 1784 kernel lines registered from .py files; 1.13.1 shows all
// its Python registrations as "registered at /dev/null:N" (845 lines, 181 of
// them schemas, so 664 kernels).
#include <doctest/doctest.h>

#include "table/kernel_kind.h"
#include "query/predicates.h"
#include "load/load_registry.h"

using namespace dispatchctl;

namespace {
size_t python_kernels(const Registry& registry) {
  size_t n = 0;
  for (const auto& op : registry.operators())
    for (const auto& k : op.registrations) n += is_python_kernel(k);
  return n;
}
}  // namespace

TEST_CASE("kernel language: read off what PyTorch printed") {
  CHECK(kernel_language("registered at /usr/lib/python3/dist-packages/torch/_meta_registrations.py:53") ==
        KernelLanguage::Python);
  CHECK(kernel_language("registered at /dev/null:241") == KernelLanguage::Python);
  CHECK(kernel_language("registered at ./build/aten/src/ATen/RegisterCPU_1.cpp:7745") == KernelLanguage::Cpp);
  CHECK(kernel_language("registered at ./aten/src/ATen/native/vulkan/ops/Copy.cpp:10") == KernelLanguage::Cpp);
  CHECK(kernel_language("my_kernel", "hooks/my_meta.py") == KernelLanguage::Python);
}

TEST_CASE("python kernels in the real registries: as many as the dumps show") {
  CHECK(python_kernels(*load_registry({"builtin:2.14.1"})) == 1784);
  CHECK(python_kernels(*load_registry({"builtin:1.13.1"})) == 664);
}

TEST_CASE("query --works does not count a python kernel; --unknown lists it") {
  auto reg = load_registry({"builtin:2.14.1"});
  const Key meta = *reg->catalogue().find("Meta");
  Query q;
  q.key = meta;
  q.op_patterns = {"aten::nonzero.default"};  // the unnamed overload alone
  q.works = true;
  CHECK(run_query(*reg, q).empty());  // today's code answered yes
  q.works = false;
  q.unknown = true;
  const auto unknown = run_query(*reg, q);
  REQUIRE(unknown.size() == 1);
  CHECK(unknown[0]->name == "aten::nonzero");
  const Row row = live_row(*reg, *unknown[0], meta);
  CHECK(outcome_verdict(classify_followed(*reg, *unknown[0], row, live_row_of(*reg)).outcome) == RowVerdict::Unknown);
  // A C++ kernel still works; the 2.x Meta fallback still fails.
  const Operator& add = *reg->find("aten::add.Tensor");
  CHECK(outcome_verdict(classify_followed(*reg, add, live_row(*reg, add, *reg->catalogue().find("CPU")), live_row_of(*reg))
                            .outcome) == RowVerdict::Works);
  q.unknown = false;
  q.works = true;
  CHECK_THROWS(([&] { Query both = q; both.fails = true; run_query(*reg, both); })());
}
