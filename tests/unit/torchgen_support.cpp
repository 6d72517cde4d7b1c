#include "torchgen_support.h"
#include "builtin/builtin_catalogues.h"

namespace dispatchctl::test {

std::string torchgen_dir(const std::string& version) {
  return std::string(DISPATCHCTL_TEST_DATA) + "/torch-" + version + "/torchgen";
}

torchgen::TorchgenInputs torchgen_inputs(const std::string& version) {
  return torchgen::read_torchgen_inputs(torchgen_dir(version));
}

torchgen::Predictions predict_release(const std::string& version) {
  return torchgen::predict_from_inputs(torchgen_inputs(version), *builtin_catalogue(version), {});
}

}  // namespace dispatchctl::test

namespace dispatchctl::test {

torchgen::Predictions predict_yaml(const std::string& native_functions, const std::string& derivatives,
                                   const std::string& version, const std::set<std::string>& backends) {
  torchgen::TorchgenInputs inputs{{"native_functions.yaml", native_functions}, torchgen_inputs(version).tags, {}};
  if (!derivatives.empty()) inputs.derivatives = torchgen::YamlSource{"derivatives.yaml", derivatives};
  torchgen::TorchgenOptions options;
  options.build_backends = backends;
  return torchgen::predict_from_inputs(inputs, *builtin_catalogue(version), options);
}

std::map<std::string, std::string> rules_of(const torchgen::Predictions& p, const std::string& op) {
  std::map<std::string, std::string> out;
  for (const auto& r : p.registrations)
    if (r.op == "aten::" + op) out[r.key] = r.rule;
  return out;
}

}  // namespace dispatchctl::test
