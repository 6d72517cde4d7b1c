// check's required-key uses the followed outcomes (issue 30): over a real
// PrivateUse1 backend (tests/composite_calls/backend_0.json.gz, the kernels a
// live 2.14.1 backend registered) layered over builtin:2.14.1, an operator of
// the core opset whose kernel at PrivateUse1 is a composite calling a row the
// backend lacks fails there, named with the row that raises: exactly the
// operators has-kernel --works answers "no" for, raising at the same operator.
// And report's "what to implement" is explain's needs summed over its operators.
#include <doctest/doctest.h>

#include <map>
#include <set>

#include "check/check.h"
#include "load/load_registry.h"
#include "load/operator_set.h"
#include "query/has_kernel.h"
#include "query/predicates.h"
#include "report/coverage.h"
#include "table/needs.h"

using namespace dispatchctl;

namespace {
const std::string k_backend = std::string(DISPATCHCTL_SOURCE_DIR) + "/tests/composite_calls/backend_0.json.gz";
}  // namespace

TEST_CASE("check: required-key at a backend key agrees with has-kernel --works (backend_0 over builtin:2.14.1)") {
  CheckOptions options;
  options.require = {"PrivateUse1"};
  options.opset = "core";
  options.include_base = true;
  const CheckResult checked = run_check({"builtin:2.14.1", k_backend}, options);
  std::map<std::string, std::string> findings;  // operator -> message
  for (const Finding& f : checked.findings)
    if (f.rule == "required-key") findings[f.op] = f.message;

  auto reg = load_registry({"builtin:2.14.1", k_backend});
  const Key k = *reg->catalogue().find("PrivateUse1");
  const BuildBackends build = build_backends(*reg);
  std::size_t followed_failures = 0, compared = 0;
  for (const std::string& name : builtin_operator_set("2.14.1", "core").names) {
    const Operator* op = reg->find(name);
    if (!op) continue;
    CAPTURE(name);
    const HasKernelResult works = answer_has_kernel(*reg, *op, k, HasKernelQuestion::Works, build);
    const bool kernel = works.row.valid() && works.row.rule != Rule::BackendFallback &&
                        works.row.rule != Rule::AmbiguousAutogradOther;
    const auto found = findings.find(name);
    if (!kernel) {
      CHECK(found != findings.end());  // nothing of its own fills it: as before
      continue;
    }
    ++compared;
    if (works.verdict == RowVerdict::Fails) {
      REQUIRE(found != findings.end());
      CHECK(found->second.find("has no working kernel for required key PrivateUse1") != std::string::npos);
      REQUIRE(works.raises_at);
      CHECK(found->second.find("a call raises at " + works.raises_at->name + " (PrivateUse1)") != std::string::npos);
      if (!works.error.empty()) CHECK(found->second.find(works.error) != std::string::npos);
      ++followed_failures;
    } else {
      CHECK(found == findings.end());  // works, forward only or unknown: no finding
    }
  }
  // A backend with 327 of PyTorch's operators: most core composites still miss a callee.
  CHECK(compared > 50);
  CHECK(followed_failures > 10);
  MESSAGE("core operators with a kernel at PrivateUse1: " << compared << ", failing through what they call: "
                                                          << followed_failures);
}

TEST_CASE("report: what to implement is explain's needs summed over the report's operators") {
  auto reg = load_registry({"builtin:2.14.1", k_backend});
  const Key k = *reg->catalogue().find("PrivateUse1");
  const CoverageReport report =
      build_coverage(*reg, {{"PrivateUse1", "AutogradPrivateUse1", "CPU"}, {"aten::silu*", "aten::div*", "aten::add*"}});
  // At the report's backend key: its first backend column (CPU comes later).
  CHECK(report.focus == k);
  REQUIRE(report.implement.size() == 1);
  const KeyNeeds& needs = report.implement[0];
  CHECK(needs.key == k);
  std::map<const Operator*, std::size_t> forward, backward;
  std::size_t needing = 0;
  for (const Operator* op : report.operators) {
    const OperatorNeeds one = operator_needs(*reg, *op, k);
    for (const NeededOperator& n : one.forward) ++forward[n.op];
    for (const NeededOperator& n : one.backward) ++backward[n.op];
    needing += !one.forward.empty();
  }
  CHECK(needs.rows_needing == needing);
  REQUIRE(needs.forward.size() == forward.size());
  for (const NeededAtKey& n : needs.forward) {
    CAPTURE(n.op->name);
    CHECK(n.rows.size() == forward[n.op]);
  }
  REQUIRE(needs.backward.size() == backward.size());
  for (const NeededAtKey& n : needs.backward) CHECK(n.rows.size() == backward[n.op]);
  for (std::size_t i = 1; i < needs.forward.size(); ++i)
    CHECK(needs.forward[i - 1].rows.size() >= needs.forward[i].rows.size());
}
