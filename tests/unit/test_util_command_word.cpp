// Which word names the subcommand (util/command_word.h): main's options and
// their values are skipped as the main parser would read them.
#include <doctest/doctest.h>

#include <vector>

#include "util/command_word.h"

using namespace dispatchctl;

namespace {
// A main with the flags -v/--verbose, -q/--quiet and an option -l/--level VALUE.
MainOption kind_of(std::string_view name) {
  if (name == "-v" || name == "--verbose" || name == "-q" || name == "--quiet") return MainOption::Flag;
  if (name == "-l" || name == "--level") return MainOption::TakesValue;
  return MainOption::Unknown;
}
std::optional<int> word(std::vector<const char*> args) {
  args.insert(args.begin(), "dispatchctl");
  return command_word(static_cast<int>(args.size()), args.data(), kind_of);
}
}  // namespace

TEST_CASE("command word: main's flags and options with values are skipped") {
  CHECK(word({"show", "aten::add"}) == 1);
  CHECK(word({"-v", "show"}) == 2);
  CHECK(word({"-vq", "--quiet", "show"}) == 3);
  CHECK(word({"--verbose=true", "show"}) == 2);
  // The value of an option that takes one is not the command.
  CHECK(word({"--level", "show", "keys"}) == 3);
  CHECK(word({"-l", "show", "keys"}) == 3);
  CHECK(word({"--level=show", "keys"}) == 2);
  CHECK(word({"-l3", "keys"}) == 2);
  CHECK(word({"-vl", "3", "keys"}) == 3);
  CHECK(word({"-v", "-l", "3", "-q", "keys", "-l", "x"}) == 5);
}

TEST_CASE("command word: none, or not knowable before parsing") {
  CHECK_FALSE(word({}));
  CHECK_FALSE(word({"-v"}));
  CHECK_FALSE(word({"--level"}));
  CHECK_FALSE(word({"--", "show"}));
  // An option main does not have might take a value: the parser decides.
  CHECK_FALSE(word({"-m", "builtin:1.13.1", "show"}));
  CHECK_FALSE(word({"--format=json", "show"}));
  CHECK_FALSE(word({"-vx", "show"}));
  CHECK(word({"-", "show"}) == 1);  // "-" is a word (standard input), not an option
}
