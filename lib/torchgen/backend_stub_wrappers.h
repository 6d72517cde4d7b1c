// The out= and in-place wrappers gen_backend_stubs generates around a listed
// functional kernel (register_dispatch_key.py gen_unstructured with
// gets_generated_out_inplace_wrapper; docs/torchgen-rules.md §8): for one
// key's list, every variant of a listed functional op's signature group that
// the list leaves out is registered too, as a wrapper that calls the
// backend's functional kernel and copies into the written argument.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "registry/registry.h"

namespace dispatchctl::torchgen {

struct StubWrapper {
  std::string op;       // "aten::relu_"
  std::string wraps;    // the listed functional op: "aten::relu"
  int line = 0;         // the YAML line that lists `wraps`
};

// `listed`: one key's operators ("aten::relu") with their YAML lines. The
// signature groups are the registry's aten operators grouped as
// pre_group_native_functions groups native_functions.yaml (a group needs a
// functional and an out= variant). Throws InputError naming `file`:line
// where the real generator fails: a mutable variant, or a variant that
// returns nothing without exactly one out= argument.
std::vector<StubWrapper> stub_wrappers(const Registry& registry,
                                       const std::vector<std::pair<std::string, int>>& listed,
                                       const std::string& file);

}  // namespace dispatchctl::torchgen
