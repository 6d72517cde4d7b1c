// Build-time helper: gunzips an embedded registry so the binary can carry
// it uncompressed (no inflate at start-up; see lib/builtin/builtin.h).
#include <cstdio>
#include <fstream>
#include <sstream>

#include "util/errors.h"
#include "util/file_io.h"

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s INPUT.gz OUTPUT\n", argv[0]);
    return 2;
  }
  try {
    dispatchctl::write_file_atomically(argv[2], dispatchctl::read_input_file(argv[1]));
  } catch (const dispatchctl::InputError& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
  return 0;
}
