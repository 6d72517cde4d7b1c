// dispatchctl query: not built yet (placeholder so main.cpp links).
#include "common.h"

namespace dispatchctl::cli {

void setup_query(CLI::App&, int&) {}

}  // namespace dispatchctl::cli
