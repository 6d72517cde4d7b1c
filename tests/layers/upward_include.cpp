// Compiled with lib/registry's include root by tests/layers/tests.cmake: the
// registry model may not include the torchgen layer above it, so this must
// fail with "torchgen/apply.h: No such file or directory".
#include "registry/registry.h"
#include "torchgen/apply.h"
