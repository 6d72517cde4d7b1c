// dispatchctl trace: not built yet (placeholder so main.cpp links).
#include "common.h"

namespace dispatchctl::cli {

void setup_trace(CLI::App&, int&) {}

}  // namespace dispatchctl::cli
