// The outcome model agrees with itself over every built-in registry and a
// torchgen-applied one (issue 32): report, explain --key, query and has-kernel
// --works count the same outcomes per key; on a new YAML operator without a
// formula, has-kernel, report, `check --base` and `trace` all say its autograd
// kernel is torchgen's autograd-not-implemented one (a predicted kernel, whose
// text names no build folder). Real facts: the real 2.14.1 build registers
// that kernel for every operator without a formula and with a differentiable
// output (the dump's `:: (none) [ boxed ]` VariableType kernels), and the
// real torchgen 2.14.1 did so for this edit (tests/torchgen_corpus,
// new-op-with-meta: backward-not-implemented).
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

#include <unistd.h>

#include "builtin/builtin.h"
#include "check/check.h"
#include "explain/key_report.h"
#include "load/load_registry.h"
#include "query/has_kernel.h"
#include "query/predicates.h"
#include "report/coverage.h"
#include "table/table.h"
#include "test_support.h"
#include "torchgen_support.h"
#include "trace/call_input.h"
#include "trace/trace.h"
#include "util/file_io.h"

using namespace dispatchctl;

namespace {

// Every command's counts of one registry at `names` (those the release has).
void check_counts_agree(const Registry& reg, const std::vector<std::string>& wanted) {
  const Catalogue& cat = reg.catalogue();
  std::vector<std::string> names;
  for (const auto& n : wanted)
    if (cat.find(n)) names.push_back(n);
  const CoverageReport report = build_coverage(reg, {names, {}});
  const auto ops = reg.sorted_operators();
  const BuildBackends build = build_backends(reg);
  for (std::size_t j = 0; j < names.size(); ++j) {
    INFO(names[j]);
    const Key k = *cat.find(names[j]);
    Query q;
    q.key = k;
    q.computed = true;
    CHECK(report.totals[j].by_outcome == key_report(reg, k, ops).outcomes);
    CHECK(report.totals[j].by_outcome == query_outcome_counts(reg, q));
    OutcomeCounts asked{};
    for (const Operator* op : ops)
      ++asked[static_cast<int>(answer_has_kernel(reg, *op, k, HasKernelQuestion::Works, build).outcome)];
    CHECK(report.totals[j].by_outcome == asked);
  }
}

// tests/data/torch-2.14.1/torchgen with the corpus' new-op-with-meta edit.
std::string yaml_with_new_operator() {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / ("dispatchctl-test-kernel-source-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  for (const char* name : {"native_functions.yaml", "tags.yaml", "derivatives.yaml"})
    std::ofstream(dir / name) << read_input_file(test::torchgen_dir("2.14.1") + "/" + name + ".gz");
  std::ofstream(dir / "native_functions.yaml", std::ios::app)
      << "\n- func: my_scale(Tensor self, float factor) -> Tensor\n  variants: function\n  dispatch:\n"
         "    CPU, CUDA, Meta: my_scale\n";
  return dir.string();
}

}  // namespace

TEST_CASE("outcomes: every command counts the same over every built-in registry") {
  const auto& registries = builtin_registries();
  for (std::size_t i = 0; i < registries.size(); i += test::k_sweep_stride) {
    const BuiltinRegistry& b = registries[i];
    INFO(b.version);
    auto reg = load_registry({"builtin:" + std::string(b.version)});
    check_counts_agree(*reg, {"CPU", "Meta", "AutogradCPU", "QuantizedCPU", "PrivateUse1", "Named"});
  }
}

TEST_CASE("outcomes: a new YAML operator without a formula is autograd-not-implemented everywhere") {
  const std::string yaml = yaml_with_new_operator();
  auto reg = load_registry({"builtin:2.14.1", "torchgen:" + yaml});
  check_counts_agree(*reg, {"CPU", "AutogradCPU", "Meta"});
  const Catalogue& cat = reg->catalogue();
  const Operator& op = *reg->find("aten::my_scale");
  const Key autograd_cpu = *cat.find("AutogradCPU");

  // The registration: predicted by torchgen, VariableType's boxed kernel.
  const Row row = compute_row(*reg, op, autograd_cpu);
  REQUIRE(row.kernel != nullptr);
  CHECK(row.kernel->source.generator == KernelGenerator::VariableType);
  CHECK(static_cast<int>(row.kernel->source.predicted) == 1);
  CHECK(is_autograd_not_implemented(*row.kernel));

  // has-kernel --works and report.
  const HasKernelResult works =
      answer_has_kernel(*reg, op, autograd_cpu, HasKernelQuestion::Works, build_backends(*reg));
  CHECK(works.outcome == Outcome::AutogradNotImplemented);
  const CoverageReport report = build_coverage(*reg, {{"AutogradCPU"}, {"aten::my_scale"}});
  REQUIRE(report.operators.size() == 1);
  CHECK(report.outcome(0, 0) == Outcome::AutogradNotImplemented);

  // check --base: backward-not-implemented.
  CheckOptions options;
  options.base = {"builtin:2.14.1", "torchgen:" + test::torchgen_dir("2.14.1")};
  const CheckResult checked = run_check({"builtin:2.14.1", "torchgen:" + yaml}, options);
  bool backward = false;
  for (const Finding& f : checked.findings)
    backward = backward || (f.rule == "backward-not-implemented" && f.op == "aten::my_scale");
  CHECK(backward);
  CHECK(checked.new_count == 1);

  // trace: the hop at AutogradCPU is the autograd-not-implemented kernel.
  CallOptions call;
  call.tensors = {"cpu:requires_grad"};
  const Trace t = trace_call(*reg, op, make_call_setup(cat, call));
  bool traced = false;
  for (const Hop& h : t.hops)
    if (h.row.key == autograd_cpu) traced = h.assumed.find("autograd-not-implemented") != std::string::npos;
  CHECK(traced);
  std::filesystem::remove_all(yaml);
}
