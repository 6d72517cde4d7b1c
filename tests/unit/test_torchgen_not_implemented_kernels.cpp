// Which operators torchgen gives the boxed autograd-not-implemented kernel
// (gen_variable_type_func: no differentiability info, a differentiable
// output, not exempt), against the real builds' dumps: the operators whose
// Autograd registration is VariableType's `:: (none) [ boxed ]` kernel in
// 2.14.1 and 1.13.1 (issue 32: 1.13's exempt lists were "unknown", so none
// was predicted; `__ilshift__` and `_coalesced_` get the kernel: DONT_REQUIRE_DERIVATIVE
// is looked up by base name, "lshift" and "_coalesced").
#include <doctest/doctest.h>

#include <set>

#include "builtin/builtin_catalogues.h"
#include "load/load_registry.h"
#include "torchgen_support.h"
#include "util/file_io.h"

using namespace dispatchctl;

namespace {

struct Agreement {
  std::size_t both = 0, predicted_only = 0, real_only = 0;
};

Agreement compare(const std::string& version, const torchgen::TorchgenInputs& inputs) {
  torchgen::TorchgenOptions options;
  // 1.13.1's derivatives.yaml uses .size(int), which only 2.x's loader refuses.
  options.go_on_after_refusal = true;
  const torchgen::Predictions p = torchgen::predict_from_inputs(inputs, *builtin_catalogue(version), options);
  std::set<std::string> predicted;
  for (const auto& r : p.registrations)
    if (r.key == "Autograd" && r.not_implemented) predicted.insert(r.op);
  auto reg = load_registry({"builtin:" + version});
  const Key autograd = *reg->catalogue().alias(Alias::Autograd);
  std::set<std::string> real;
  for (const Operator& op : reg->operators())
    for (const std::uint32_t i : op.kernels_at(autograd))
      if (is_autograd_not_implemented(op.registrations[i])) real.insert(std::string(op.name));
  Agreement a;
  for (const auto& op : predicted) (real.count(op) ? a.both : a.predicted_only) += 1;
  for (const auto& op : real) a.real_only += !predicted.count(op);
  MESSAGE(version << ": " << a.both << " both, " << a.predicted_only << " predicted only, " << a.real_only
                  << " real only");
  CHECK(predicted.count("aten::__ilshift__.Scalar"));
  CHECK(predicted.count("aten::_coalesced_"));
  CHECK(!predicted.count("aten::set_"));  // RESET_GRAD_ACCUMULATOR
  return a;
}

}  // namespace

TEST_CASE("torchgen: the autograd-not-implemented kernels are the real 2.14.1 build's") {
  const Agreement a = compare("2.14.1", test::torchgen_inputs("2.14.1"));
  // An exact ratchet: 9 of the real build's 774 are not predicted.
  CHECK(a.both == 765);
  CHECK(a.predicted_only == 0);
  CHECK(a.real_only == 9);
}

TEST_CASE("torchgen: the autograd-not-implemented kernels are the real 1.13.1 build's") {
  torchgen::TorchgenInputs inputs = test::torchgen_inputs("1.13.1");
  const std::string derivatives = std::string(DISPATCHCTL_TEST_DATA) + "/torch-1.13.1/autograd/derivatives.yaml.gz";
  inputs.derivatives = torchgen::YamlSource{derivatives, read_input_file(derivatives)};
  const Agreement a = compare("1.13.1", inputs);
  // An exact ratchet: none was predicted before 1.13's lists were read; 56 of 732 still are not.
  CHECK(a.both == 676);
  CHECK(a.predicted_only == 0);
  CHECK(a.real_only == 56);
}
