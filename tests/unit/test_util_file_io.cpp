// util/file_io: outputs get the permissions every Unix tool gives (the
// umask's, or the replaced file's own), still written through a rename; and
// an input that cannot be rewound is read once, each later read the same.
#include <doctest/doctest.h>

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "util/errors.h"
#include "util/file_io.h"

using namespace dispatchctl;
namespace fs = std::filesystem;

namespace {

struct Scratch {
  fs::path dir = fs::temp_directory_path() / ("file-io-test-" + std::to_string(::getpid()));
  Scratch() { fs::create_directories(dir); }
  ~Scratch() {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
};

mode_t mode_of(const fs::path& path) {
  struct stat st {};
  REQUIRE(::stat(path.c_str(), &st) == 0);
  return st.st_mode & 07777;
}

// Sets the umask for the scope of a test.
struct ScopedUmask {
  mode_t saved;
  explicit ScopedUmask(mode_t mask) : saved(::umask(mask)) {}
  ~ScopedUmask() { ::umask(saved); }
};

}  // namespace

TEST_CASE("write_file_atomically: a new file gets the umask's permissions, a replaced one keeps its own") {
  Scratch s;
  {
    const ScopedUmask mask(022);
    write_file_atomically((s.dir / "a.json").string(), "{}");
    CHECK(mode_of(s.dir / "a.json") == 0644);
  }
  {
    const ScopedUmask mask(077);
    write_file_atomically((s.dir / "b.json").string(), "{}");
    CHECK(mode_of(s.dir / "b.json") == 0600);
    fs::permissions(s.dir / "a.json", fs::perms(0640));
    write_file_atomically((s.dir / "a.json").string(), "{\"x\": 1}");
    CHECK(mode_of(s.dir / "a.json") == 0640);
  }
  CHECK(read_input_file((s.dir / "a.json").string()) == "{\"x\": 1}");
  int files = 0;
  for ([[maybe_unused]] const auto& entry : fs::directory_iterator(s.dir)) ++files;
  CHECK(files == 2);  // no temporary file left behind
}

TEST_CASE("write_file_atomically: a device is written in place; a full one is an InputError") {
  CHECK_THROWS_WITH_AS(write_file_atomically("/dev/full", "x"), "/dev/full: cannot write: No space left on device",
                       InputError);
  CHECK_NOTHROW(write_file_atomically("/dev/null", "x"));
}

TEST_CASE("require_writable_output: checked before any work") {
  Scratch s;
  CHECK_NOTHROW(require_writable_output((s.dir / "new.json").string()));
  CHECK_THROWS_WITH_AS(require_writable_output("/nonexistent-dispatchctl/x.json"),
                       doctest::Contains("no folder /nonexistent-dispatchctl"), InputError);
  CHECK_THROWS_WITH_AS(require_writable_output(s.dir.string()), doctest::Contains("is a folder"), InputError);
}

TEST_CASE("read_input_file: a pipe is read once; a second read gives the same bytes") {
  Scratch s;
  const fs::path fifo = s.dir / "fifo";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  const pid_t writer = ::fork();
  REQUIRE(writer >= 0);
  if (writer == 0) {
    std::ofstream(fifo) << "{\"from\": \"pipe\"}";
    ::_exit(0);
  }
  CHECK_FALSE(is_seekable_input(fifo.string()));
  CHECK(read_input_file(fifo.string()) == "{\"from\": \"pipe\"}");
  CHECK(read_input_file(fifo.string()) == "{\"from\": \"pipe\"}");  // no second open: it would block
  int status = 0;
  ::waitpid(writer, &status, 0);
}
