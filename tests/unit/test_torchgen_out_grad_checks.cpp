// What the generated autograd kernels of out= operators refuse (registry.h
// OutGradCheck): builtin:1.13.1 carries it, computed at build time from
// 1.13.1's derivatives.yaml (torchgen/out_grad_checks.h). The golden is what
// Debian's LIVE 1.13.1 did (tests/data/out_grad/torch-1.13.1.json, recorded by
// record_out_grad.py: per out= operator whose arguments are all tensors, per
// tensor argument, whether making it the one that requires grad is refused).
#include <doctest/doctest.h>

#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "load/load_registry.h"
#include "table/table.h"
#include "test_support.h"
#include "torchgen/generated_calls.h"

using namespace dispatchctl;

namespace {

std::set<std::string> names_in(const std::vector<Text>& list) { return {list.begin(), list.end()}; }

// The kernel a CPU call runs at AutogradCPU when it is the one registered from
// VariableType[_N].cpp (not a CompositeImplicitAutograd kernel that wins the row).
const Kernel* generated_autograd_kernel(const Registry& reg, const Operator& op) {
  const auto key = reg.catalogue().find("AutogradCPU");
  if (!key) return nullptr;
  const Row row = compute_row(reg, op, *key);
  if (!row.kernel || row.kernel->source.generator != KernelGenerator::VariableType) return nullptr;
  return row.kernel;
}

}  // namespace

TEST_CASE("out= checks: builtin:1.13.1 refuses exactly the arguments live 1.13.1 refuses") {
  auto reg = load_registry({"builtin:1.13.1"});
  const auto golden = nlohmann::json::parse(test::read_test_data("out_grad/torch-1.13.1.json"));
  std::size_t compared = 0, refused = 0;
  std::string wrong;  // "op argument; " per disagreement
  for (const auto& [name, arguments] : golden.items()) {
    const Operator* op = reg->find(name);
    const Kernel* kernel = op ? generated_autograd_kernel(*reg, *op) : nullptr;
    if (!kernel) continue;  // a composite or hand-written autograd kernel: not what torchgen generates
    const OutGradCheck* check = reg->out_grad_check(*kernel);
    std::set<std::string> checked;
    if (check) {
      checked = names_in(check->inputs);
      checked.merge(names_in(check->outputs));
    }
    for (const auto& [argument, outcome] : arguments.items()) {
      const bool live_refuses = outcome.get<std::string>() == "refuses";
      ++compared;
      refused += live_refuses;
      if (live_refuses != (checked.count(argument) != 0)) wrong += name + " " + argument + "; ";
    }
  }
  CHECK(wrong == "");
  // Most of the golden is compared (the count today: raise it, never lower it).
  CHECK(compared >= 980);
  CHECK(refused >= 432);
  CHECK(reg->out_grad_check_count() > 0);
}

TEST_CASE("out= checks: operators torchgen does not differentiate get none") {
  auto reg = load_registry({"builtin:1.13.1"});
  // Live 1.13.1: argmax.out (DONT_REQUIRE_DERIVATIVE) and eq.Tensor_out return
  // with an input that requires grad; add.out refuses self, other and out.
  for (const char* name : {"aten::argmax.out", "aten::eq.Tensor_out"}) {
    const Operator* op = reg->find(name);
    REQUIRE(op);
    const Kernel* kernel = generated_autograd_kernel(*reg, *op);
    CHECK((kernel == nullptr || reg->out_grad_check(*kernel) == nullptr));
  }
  const Operator* add = reg->find("aten::add.out");
  REQUIRE(add);
  const Kernel* kernel = generated_autograd_kernel(*reg, *add);
  REQUIRE(kernel);
  const OutGradCheck* check = reg->out_grad_check(*kernel);
  REQUIRE(check);
  CHECK(check->inputs == std::vector<Text>{"self", "other"});
  CHECK(check->outputs == std::vector<Text>{"out"});
}
