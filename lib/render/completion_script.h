// Shell completion scripts (`dispatchctl completion bash|zsh|fish`) from a
// description of the command line. app/completion.cpp fills the description
// by walking the CLI11 App, so the scripts follow the commands as they are.
// Operator and key names come at TAB time from `dispatchctl __complete`.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace dispatchctl {

// What an option's (or a command's positional) value is.
// The key kinds follow load/completion_names.h's KeyClass: TAB offers only
// keys the option accepts.
enum class ValueKind {
  None, Text, Choice, Operator, Source, File, Version, Tensor,
  AnyKey, RuntimeKey, RuntimeOrAliasKey, AliasKey, NotAliasKey,
};
// The WHAT of `dispatchctl __complete WHAT PREFIX` for a kind of names
// ("ops", "keys", "runtime-keys", …, "tensors"); "" for other kinds.
std::string_view names_word(ValueKind kind);

struct CompletionOption {
  std::vector<std::string> names;    // "-f", "--format"
  std::string help;
  ValueKind value = ValueKind::None;  // None: a flag
  std::vector<std::string> choices;  // for Choice
};

struct CompletionCommand {
  std::string path;  // "show", "import torch-dump"; "" for the top level
  std::string help;
  std::vector<std::string> subcommands;  // names of the commands below it
  std::vector<CompletionOption> options;
  ValueKind positional = ValueKind::None;
  std::vector<std::string> positional_choices;
};

struct CompletionSpec {
  std::string program;                   // "dispatchctl"
  std::vector<CompletionCommand> commands;  // the top level first
  std::vector<std::string> builtins;     // "builtin:2.14.1", "python", …: what -m accepts besides files
  std::vector<std::string> versions;     // what --torch-version accepts
};

std::string bash_completion_script(const CompletionSpec& spec);
// zsh runs the bash function through bashcompinit.
std::string zsh_completion_script(const CompletionSpec& spec);
std::string fish_completion_script(const CompletionSpec& spec);

}  // namespace dispatchctl
