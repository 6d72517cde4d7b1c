// One outcome model (issue 22): report, explain --key and query sort every
// row the same way and print the same `outcomes` counts; Python kernels are
// never working; the autograd-not-implemented kernels are their own outcome.
// Expected facts come from the real dumps (lib/builtin/data, the shared data's
// READMEs): 2.14.1's Meta rows hold 1,506 Python meta kernels, its
// Autograd<backend> fallbacks are the autograd-not-implemented fallback.
#include <doctest/doctest.h>

#include <algorithm>

#include <nlohmann/json.hpp>

#include "explain/key_report.h"
#include "load/load_registry.h"
#include "query/has_kernel.h"
#include "query/predicates.h"
#include "render/key_report_render.h"
#include "render/query_render.h"
#include "render/report_html.h"
#include "report/coverage.h"

using namespace dispatchctl;

TEST_CASE("outcomes: report, explain --key and query agree on Meta, CPU, AutogradCPU, QuantizedCPU (2.14.1)") {
  auto reg = load_registry({"builtin:2.14.1"});
  const Catalogue& cat = reg->catalogue();
  const std::vector<std::string> names = {"Meta", "CPU", "AutogradCPU", "QuantizedCPU"};
  const CoverageReport report = build_coverage(*reg, {names, {}});
  const auto report_json = nlohmann::json::parse(coverage_json_text(report));
  const auto ops = reg->sorted_operators();
  for (std::size_t j = 0; j < names.size(); ++j) {
    INFO(names[j]);
    const Key k = *cat.find(names[j]);
    const KeyReport explained = key_report(*reg, k, ops);
    Query q;
    q.key = k;
    q.computed = true;
    const OutcomeCounts queried = query_outcome_counts(*reg, q);
    CHECK(report.totals[j].by_outcome == explained.outcomes);
    CHECK(report.totals[j].by_outcome == queried);
    // The JSON the three commands print carries the same names and counts.
    const auto explain_json = nlohmann::json::parse(key_report_json(*reg, explained, {}).dump());
    const auto query_json = nlohmann::json::parse(query_json_text(*reg, {}, std::nullopt, QueryOutcomes{k, queried}));
    CHECK(report_json["keys"][j]["outcomes"] == explain_json["outcomes"]);
    CHECK(report_json["keys"][j]["outcomes"] == query_json["outcomes"]);
    CHECK(report_json["keys"][j]["outcomes"].size() == k_outcome_count);
    // working = direct + composite + fallback + fallthrough, and nothing else.
    const auto& c = report.totals[j].by_outcome;
    auto n = [&](Outcome o) { return c[static_cast<int>(o)]; };
    CHECK(report.totals[j].working ==
          n(Outcome::Direct) + n(Outcome::Composite) + n(Outcome::Fallback) + n(Outcome::Fallthrough));
  }
  auto count = [&](std::size_t j, Outcome o) { return report.totals[j].by_outcome[static_cast<int>(o)]; };
  // Meta: the Python meta kernels are theirs, not working; the 2.x Meta fallback raises (524 rows, README),
  // and two hand-written composites recorded raising on meta tensors (convolution_overrideable, symm_mem::_rendezvous).
  CHECK(count(0, Outcome::Python) > 1000);
  CHECK(count(0, Outcome::Raises) == 524 + 2);
  // AutogradCPU: the autograd-not-implemented fallback and torchgen's boxed
  // autogradNotImplementedFallback() kernels are not working.
  CHECK(count(2, Outcome::AutogradNotImplemented) > 365);
  CHECK(report.totals[2].working < report.operators.size() - 365);
}

// Generated composites followed (issue 22): a structured op's generated
// CompositeExplicitAutogradNonFunctional kernel calls OP.out, so its row at a
// key is what OP.out's row there is. The facts are the dump's (which kernel
// sits in RegisterCompositeExplicitAutogradNonFunctional_0.cpp) and the YAML's
// (structured_delegate); real 1.13.1 raises "Could not run 'aten::add.out' with
// arguments from the 'QuantizedCPU' backend" for torch.add on quantized tensors
// (tests/trace_goldens). has-kernel --works, report, explain --key and query
// agree on every operator at QuantizedCPU and PrivateUse1.
TEST_CASE("outcomes: generated composites are followed, the same way by every command (2.14.1)") {
  auto reg = load_registry({"builtin:2.14.1"});
  const Catalogue& cat = reg->catalogue();
  const std::vector<std::string> names = {"QuantizedCPU", "PrivateUse1"};
  const CoverageReport report = build_coverage(*reg, {names, {}});
  const auto ops = reg->sorted_operators();
  // Every command counts these rows the same: test_table_outcome_agreement_registries.cpp.
  for (std::size_t j = 0; j < names.size(); ++j) {
    INFO(names[j]);
    CHECK(report.totals[j].by_outcome[static_cast<int>(Outcome::CompositeFails)] > 100);
  }
  std::size_t add = ops.size();
  for (std::size_t i = 0; i < report.operators.size(); ++i)
    if (report.operators[i]->name == "aten::add.Tensor") add = i;
  REQUIRE(add < report.operators.size());
  CHECK(report.outcome(add, 0) == Outcome::CompositeFails);
  REQUIRE(report.dependency(add, 0).op != nullptr);
  CHECK(report.dependency(add, 0).op->name == "aten::add.out");
  CHECK(report.dependency(add, 0).outcome == Outcome::Missing);
  CHECK(report.dependency(add, 0).kind == GeneratedCallKind::StructuredOut);
  // A hand-written CompositeExplicitAutograd kernel is not followed: aten::abs
  // calls at::abs_out in its own code, which no table fixes.
  const Operator& abs = *reg->find("aten::abs");
  const Row abs_row = compute_row(*reg, abs, *cat.find("QuantizedCPU"));
  CHECK(abs_row.kernel != nullptr);
  CHECK(reg->generated_call(*abs_row.kernel) == nullptr);
  // A filtered load of the built-in pack brings the callee along.
  auto some = load_registry({"builtin:2.14.1"}, [](std::string_view name) { return name == "aten::add_.Tensor"; });
  CHECK(some->find("aten::add.out") != nullptr);
}

TEST_CASE("outcomes: 1.13.1's aten::_adaptive_avg_pool2d at Meta is a Python kernel everywhere") {
  auto reg = load_registry({"builtin:1.13.1"});
  const Catalogue& cat = reg->catalogue();
  const Key meta = *cat.find("Meta");
  const Operator& op = *reg->find("aten::_adaptive_avg_pool2d");
  const CoverageReport report = build_coverage(*reg, {{"Meta"}, {"aten::_adaptive_avg_pool2d"}});
  std::size_t row = report.operators.size();
  for (std::size_t i = 0; i < report.operators.size(); ++i)
    if (report.operators[i] == &op) row = i;
  REQUIRE(row < report.operators.size());
  CHECK(report.outcome(row, 0) == Outcome::Python);
  const HasKernelResult works = answer_has_kernel(*reg, op, meta, HasKernelQuestion::Works, build_backends(*reg));
  CHECK(works.outcome == Outcome::Python);
  CHECK(works.answer == HasKernelAnswer::Unknown);
  Query q;
  q.key = meta;
  q.outcomes = {Outcome::Python};
  q.op_patterns = {"aten::_adaptive_avg_pool2d"};
  const auto found = run_query(*reg, q);
  CHECK(std::find(found.begin(), found.end(), &op) != found.end());
  const KeyReport explained = key_report(*reg, meta, {&op});
  CHECK(explained.outcomes[static_cast<int>(Outcome::Python)] == 1);
}

TEST_CASE("outcomes: names and labels are found back; the release facts come from the profile") {
  CHECK(find_outcome("python") == Outcome::Python);
  CHECK(find_outcome("C++ kernel") == Outcome::Direct);
  CHECK(find_outcome("autograd not implemented") == Outcome::AutogradNotImplemented);
  CHECK_FALSE(find_outcome("works").has_value());
  // 1.13.1's profile has no raising Meta fallback and fallthrough autograd fallbacks:
  // its Meta rows that raise are the two composites recorded raising on meta
  // tensors whatever the input (convolution_overrideable's stub, mode.values).
  auto reg = load_registry({"builtin:1.13.1"});
  const CoverageReport r = build_coverage(*reg, {{"Meta", "AutogradCPU"}, {}});
  CHECK(r.totals[0].by_outcome[static_cast<int>(Outcome::Raises)] == 2);
  CHECK(r.totals[1].by_outcome[static_cast<int>(Outcome::Fallthrough)] > 0);
}
