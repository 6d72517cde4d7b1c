// YAML edits behave as torchgen would: each edit changes exactly the rows it
// should (tables over builtin:2.14.1, before and after, compared with lib/diff).
#include <doctest/doctest.h>

#include <set>

#include "diff/diff.h"
#include "load/load_registry.h"
#include "torchgen_support.h"

using namespace dispatchctl;

namespace {

std::unique_ptr<Registry> layered(const std::string& native_functions) {
  auto registry = load_registry({"builtin:2.14.1"});
  auto inputs = test::torchgen_inputs("2.14.1");
  inputs.native_functions.text = native_functions;
  torchgen::apply_torchgen(*registry, inputs, {});
  return registry;
}

std::string edited(std::string text, const std::string& from, const std::string& to) {
  const size_t at = text.find(from);
  REQUIRE_MESSAGE(at != std::string::npos, from);
  return text.replace(at, from.size(), to);
}

// Line numbers after an edit shift; the debug text has none, so rows differ only by content.
DiffResult diff_of(const Registry& a, const Registry& b) { return diff_registries(a, b); }

std::set<std::string> changed_ops(const DiffResult& d) {
  std::set<std::string> out;
  for (const auto& op : d.operators) out.insert(op.name);
  return out;
}

std::string row_text(const Registry& r, const RowChange& c) {
  return c.key + ": " + std::string(tag_text(c.before.rule)) + " -> " + std::string(tag_text(c.after.rule)) + " (" +
         r.catalogue().name(c.after.provider) + ")";
}

}  // namespace

TEST_CASE("YAML edits change exactly the rows they should") {
  // Once for every subcase (doctest re-enters the test case per subcase).
  static const std::string original = test::torchgen_inputs("2.14.1").native_functions.text;
  static const auto before = layered(original);

  SUBCASE("a new operator: one operator added, nothing else") {
    const auto after = layered(original + "\n- func: my_new_op(Tensor self) -> Tensor\n  dispatch:\n    CPU: my_new_op\n");
    const DiffResult d = diff_of(*before, *after);
    REQUIRE(d.operators.size() == 1);
    CHECK(d.operators[0].name == "aten::my_new_op");
    CHECK(d.operators[0].change == OperatorDiff::Change::Added);
    const Operator* op = after->find("aten::my_new_op");
    REQUIRE(op != nullptr);
    CHECK(op->has(*after->catalogue().find("CPU")));
    CHECK(op->has(*after->catalogue().find("Autograd")));
  }

  SUBCASE("a removed dispatch entry: add.Tensor's MkldnnCPU row falls to its CEANF kernel") {
    const auto after = layered(edited(original, "    MkldnnCPU: mkldnn_add\n", ""));
    const DiffResult d = diff_of(*before, *after);
    CHECK(changed_ops(d) == std::set<std::string>{"aten::add.Tensor"});
    REQUIRE(d.operators.size() == 1);
    REQUIRE(d.operators[0].rows.size() == 1);
    CHECK(row_text(*after, d.operators[0].rows[0]) ==
          "MkldnnCPU: kernel -> default backend kernel (CompositeExplicitAutogradNonFunctional)");
    // The same against the real registry: unchanged predictions keep PyTorch's kernel identity.
    CHECK(changed_ops(diff_of(*load_registry({"builtin:2.14.1"}), *after)) == std::set<std::string>{"aten::add.Tensor"});
  }

  SUBCASE("an op turned structured: logit's group gets Meta and CompositeExplicitAutogradNonFunctional kernels") {
    std::string yaml = edited(original, "    CPU, CUDA, MTIA, XPU: logit\n    MPS: logit_mps\n  tags: pointwise\n\n- func: logit_(",
                              "  tags: pointwise\n\n- func: logit_(");
    yaml = edited(yaml, "- func: logit(Tensor self, float? eps=None) -> Tensor\n  variants: function, method\n  dispatch:\n",
                  "- func: logit(Tensor self, float? eps=None) -> Tensor\n  variants: function, method\n  structured_delegate: logit.out\n");
    yaml = edited(yaml, "  variants: function, method\n  dispatch:\n    CPU, CUDA, XPU: logit_\n",
                  "  variants: function, method\n  structured_delegate: logit.out\n");
    yaml = edited(yaml, "- func: logit.out(Tensor self, float? eps=None, *, Tensor(a!) out) -> Tensor(a!)\n",
                  "- func: logit.out(Tensor self, float? eps=None, *, Tensor(a!) out) -> Tensor(a!)\n  structured: True\n");
    const auto after = layered(yaml);
    const DiffResult d = diff_of(*before, *after);
    CHECK(changed_ops(d) == std::set<std::string>{"aten::logit", "aten::logit_", "aten::logit.out"});
    for (const auto& op : d.operators)
      for (const auto& row : op.rows) {
        const std::string provider = after->catalogue().name(row.after.provider);
        CHECK_MESSAGE((provider == "CompositeExplicitAutogradNonFunctional" || provider == "Meta" || provider == "CPU"),
                      op.name << " " << row_text(*after, row));
      }
    const Operator* logit = after->find("aten::logit");
    CHECK(logit->has(*after->catalogue().find("CompositeExplicitAutogradNonFunctional")));
    CHECK_FALSE(after->find("aten::logit.out")->has(*after->catalogue().find("CompositeExplicitAutogradNonFunctional")));
  }

  SUBCASE("a kernel moved from CompositeImplicitAutograd to CompositeExplicitAutograd: linear") {
    const auto after = layered(edited(original, "    CompositeImplicitAutograd: linear\n", "    CompositeExplicitAutograd: linear\n"));
    const DiffResult d = diff_of(*before, *after);
    CHECK(changed_ops(d) == std::set<std::string>{"aten::linear"});
    REQUIRE(d.operators.size() == 1);
    std::set<std::string> rows;
    for (const auto& row : d.operators[0].rows) rows.insert(row_text(*after, row));
    CHECK(rows.count("CPU: math kernel -> default backend kernel (CompositeExplicitAutograd)"));
    CHECK(rows.count("AutogradCPU: math kernel -> autograd kernel (Autograd)"));
    CHECK_FALSE(rows.count("NestedTensorCPU: kernel -> default backend kernel (CompositeExplicitAutograd)"));
  }
}
