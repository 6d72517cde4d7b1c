#include "torchgen_support.h"

namespace dispatchctl::test {

std::string torchgen_dir(const std::string& version) {
  return std::string(DISPATCHCTL_TEST_DATA) + "/torch-" + version + "/torchgen";
}

torchgen::TorchgenInputs torchgen_inputs(const std::string& version) {
  return torchgen::read_torchgen_inputs(torchgen_dir(version));
}

torchgen::Predictions predict_release(const std::string& version) {
  return torchgen::predict_from_inputs(torchgen_inputs(version), *Catalogue::for_version(version), {});
}

}  // namespace dispatchctl::test
