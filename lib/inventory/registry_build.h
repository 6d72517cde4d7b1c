// Which build a loaded registry is, for the notes about rows of a backend the
// build lacks (show, explain, has-kernel, trace; the CLI and the Python
// module alike): the backends it has kernels for (query/build_backends),
// whether a source was -m python (the note then speaks of the exported
// PyTorch), and the built-in registries of a CUDA build it can point to.
#pragma once

#include "query/predicates.h"
#include "registry/registry.h"

namespace dispatchctl {

BuildBackends build_of(const Registry& registry);

}  // namespace dispatchctl
