// Which word of a command line names the subcommand, found before the
// command-line parser is set up: main sets up only that subcommand (setting
// up all fourteen was a quarter of `show aten::add`, issue 14).
#pragma once

#include <optional>
#include <string_view>

namespace dispatchctl {

// What a main-level option is: a flag, one that takes a value, or unknown.
enum class MainOption { Flag, TakesValue, Unknown };

// The index in argv of the first word that is neither a main-level option
// nor the value of one ("-v", "--quiet", "--level=3", "--level 3", "-vq",
// "-l3"); nullopt when there is none, or when an unknown option or "--"
// comes first (its words cannot be told apart then: the caller sets up every
// subcommand and lets the parser report). `kind_of` is asked with the
// option's name as written without its value: "-v", "--verbose".
template <typename KindOf>
std::optional<int> command_word(int argc, const char* const* argv, const KindOf& kind_of) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view word = argv[i];
    if (word == "--") return std::nullopt;
    if (word.size() < 2 || word[0] != '-') return i;
    if (word[1] == '-') {  // --name or --name=value
      const size_t eq = word.find('=');
      const MainOption kind = kind_of(word.substr(0, eq));
      if (kind == MainOption::Unknown) return std::nullopt;
      if (kind == MainOption::TakesValue && eq == std::string_view::npos) ++i;
      continue;
    }
    // -abc: flags, until one that takes a value (the rest of the word, or the next word).
    for (size_t c = 1; c < word.size(); ++c) {
      const char name[] = {'-', word[c], '\0'};
      const MainOption kind = kind_of(std::string_view(name, 2));
      if (kind == MainOption::Unknown) return std::nullopt;
      if (kind == MainOption::TakesValue) {
        if (c + 1 == word.size()) ++i;
        break;
      }
    }
  }
  return std::nullopt;
}

}  // namespace dispatchctl
