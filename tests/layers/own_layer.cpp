// The control for upward_include.cpp: the same include root compiles what
// lib/registry may include (itself, keys, util).
#include "keys/catalogue.h"
#include "registry/registry.h"
#include "util/errors.h"
