// Finding and reading torchgen's YAML inputs: a PyTorch checkout, a folder
// holding the YAML files, or one native_functions.yaml (each possibly .gz).
#pragma once

#include <optional>
#include <set>
#include <string>

#include "keys/catalogue.h"
#include "torchgen/model.h"
#include "torchgen/refusals.h"
#include "torchgen/release_rules.h"

namespace dispatchctl::torchgen {

struct YamlSource {
  std::string path;  // as shown in provenance and errors
  std::string text;  // gunzipped
};

struct TorchgenInputs {
  YamlSource native_functions;
  std::optional<YamlSource> tags;
  std::optional<YamlSource> derivatives;
  // tools/autograd/deprecated.yaml, beside derivatives.yaml: the Python
  // bindings' deprecated signatures (gen_python_functions.py).
  std::optional<YamlSource> deprecated = std::nullopt;
};

// PATH = a checkout (aten/src/ATen/native/, tools/autograd/), a folder with
// the files, or native_functions.yaml[.gz]; each of them as it was at a
// revision of the checkout here as git:REV[:PATH] (util/git_show.h; no PATH:
// the checkout's root). InputError when nothing fits.
TorchgenInputs read_torchgen_inputs(const std::string& path);

struct ParseOptions {
  const ReleaseRules* rules = nullptr;
  const Catalogue* catalogue = nullptr;  // validates dispatch keys
  std::set<std::string> build_backends = {"CPU"};
};

// The NativeFunctions of the YAML (before O2) and the derivatives. What
// torchgen itself asserts on while reading (an illegal tag, an unknown dispatch
// key, a duplicate operator, an illegal schema, an unknown field, …) stops the
// reading as torchgen's does: TorchgenRefusal (refusals.h) of one of
// refusal_kinds() that stops_reading, "FILE:LINE: reason; fix". A file that is not YAML
// is a plain InputError with file:line.
TorchgenModel parse_torchgen_inputs(const TorchgenInputs& inputs, const ParseOptions& options);
// O2: adds the out= and functional variants torchgen generates.
void add_generated_functions(TorchgenModel& model, const ReleaseRules& rules);

}  // namespace dispatchctl::torchgen
