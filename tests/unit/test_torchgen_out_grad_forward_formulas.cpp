// out= checks' `result` rule (torchgen/out_grad_checks.cpp uses_single_grad):
// gen_variable_type's uses_single_grad looks at the backward formulas only
// (info.derivatives), never at the forward ones (`result0: …`). No formula of
// a real release tells them apart, so this one is made up and its answer is
// the real generator's: gen_autograd of 2.14.1 (Debian sid's torchgen, its own
// YAML plus tests/data/out_grad/forward_formula_names_grad) writes for
// my_pair.out `compute_requires_grad( self )` and then
// `compute_requires_grad( out0, out1 )`, each followed by throw_error_out_requires_grad.
#include <doctest/doctest.h>

#include <string>

#include "torchgen/inputs.h"
#include "torchgen/out_grad_checks.h"
#include "torchgen/release_rules.h"

using namespace dispatchctl;
using namespace dispatchctl::torchgen;

TEST_CASE("out= checks: a forward formula that names grad leaves every output checked") {
  const ReleaseRules* rules = rules_for_release("2.14.1");
  REQUIRE(rules);
  const TorchgenInputs inputs =
      read_torchgen_inputs(std::string(DISPATCHCTL_TEST_DATA) + "/out_grad/forward_formula_names_grad");
  REQUIRE(inputs.derivatives);
  TorchgenModel model = parse_torchgen_inputs(inputs, {rules, nullptr, {"CPU"}});
  add_generated_functions(model, *rules);
  const auto facts = out_grad_checks(model, *rules);
  const OutGradCheckFact* pair = nullptr;
  for (const auto& fact : facts)
    if (fact.op == "aten::my_pair.out") pair = &fact;
  REQUIRE(pair);
  CHECK(pair->key == "Autograd");
  CHECK(pair->inputs == std::vector<std::string>{"self"});
  CHECK(pair->outputs == std::vector<std::string>{"out0", "out1"});
}
