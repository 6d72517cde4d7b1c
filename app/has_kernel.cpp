// dispatchctl has-kernel: not built yet (placeholder so main.cpp links).
#include "common.h"

namespace dispatchctl::cli {

void setup_has_kernel(CLI::App&, int&) {}

}  // namespace dispatchctl::cli
