// dispatchctl diff: not built yet (placeholder so main.cpp links).
#include "common.h"

namespace dispatchctl::cli {

void setup_diff(CLI::App&, int&) {}

}  // namespace dispatchctl::cli
