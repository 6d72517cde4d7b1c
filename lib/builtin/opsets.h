// Operator sets a release tags in native_functions.yaml (`tags: core`: PyTorch's
// core ATen opset), recorded from the real release as lists of exact overload
// names (lib/builtin/data/torch-*/opset-NAME.txt, tools/record-model-ops.py
// --tag NAME). Tags belong to a release, not to a build.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace dispatchctl {

struct BuiltinOpset {
  std::string_view release;  // "2.14.1"
  std::string_view name;     // "core"
  std::string_view list;     // the file's text: a `#` header, then one name a line
};

// Newest release first.
const std::vector<BuiltinOpset>& builtin_opsets();
// The set `name` of `release` ("2.14.1"; a "+build" suffix or a local
// version such as "2.14.1+debian" is ignored); nullptr if none is recorded.
const BuiltinOpset* find_builtin_opset(std::string_view release, std::string_view name);
// "core (2.14.1, 2.6.0)": what is recorded, for messages.
std::string builtin_opset_names();

}  // namespace dispatchctl
