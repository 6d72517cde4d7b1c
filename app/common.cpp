#include "common.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <cstdio>
#include <algorithm>
#include <string>
#include <cstdlib>

#include "registry/sources.h"
#include "util/suggest.h"
#include "util/wrap.h"

namespace dispatchctl::cli {

void add_registry_options(CLI::App* command, RegistryOptions& options) {
  command->add_option("-m,--manifest", options.manifests,
                      "Registrations to load, in order: a manifest (.json, may be gzipped) or "
                      "builtin:VERSION (builtin:2.14.1, builtin:1.13.1). Repeat to layer a "
                      "backend over PyTorch. Default: builtin:2.14.1")
      ->type_name("FILE");
}

std::unique_ptr<Registry> open_registry(const RegistryOptions& options) {
  return load_registry(options.manifests);
}

bool stdout_is_color_terminal() {
  const char* no_color = std::getenv("NO_COLOR");
  if (no_color && *no_color) return false;
  return isatty(fileno(stdout)) != 0;
}

size_t output_width() {
  // COLUMNS first: the user's explicit choice (and what tests set).
  if (const char* columns = std::getenv("COLUMNS"); columns && *columns) {
    const long n = std::strtol(columns, nullptr, 10);
    if (n > 0) return static_cast<size_t>(std::max(40L, std::min(n, 1000L)));
  }
  struct winsize size {};
  if (isatty(fileno(stdout)) && ioctl(fileno(stdout), TIOCGWINSZ, &size) == 0 && size.ws_col > 0)
    return std::max<size_t>(40, size.ws_col);
  return k_default_width;
}

void write_stdout(std::string_view text) {
  std::fwrite(text.data(), 1, text.size(), stdout);
}

CLI::Option* add_format_option(CLI::App* command, std::string& format,
                               const std::vector<std::string>& choices) {
  std::string list;
  for (const auto& c : choices) list += (list.empty() ? "" : "|") + c;
  format = choices.front();
  return command->add_option("-f,--format", format, "Output format: " + list)
      ->check(CLI::IsMember(choices))
      ->type_name("FORMAT")
      ->capture_default_str();
}

std::string parse_error_text(const CLI::App& app, int argc, char** argv, const std::string& what) {
  std::vector<std::string> subcommand_names;
  for (const CLI::App* sub : app.get_subcommands({})) subcommand_names.push_back(sub->get_name());
  const CLI::App* command = nullptr;
  for (int i = 1; i < argc && !command; ++i)
    for (const CLI::App* sub : app.get_subcommands({}))
      if (sub->get_name() == argv[i]) command = sub;
  if (!command) {  // the first word is not a subcommand
    if (argc < 2 || argv[1][0] == '-') return what;
    std::vector<std::string_view> names(subcommand_names.begin(), subcommand_names.end());
    std::string list;
    for (const auto& n : subcommand_names) list += (list.empty() ? "" : ", ") + n;
    const std::string hint = did_you_mean(argv[1], names);
    return "unknown command '" + std::string(argv[1]) + "'" + (hint.empty() ? "; commands: " + list : hint);
  }
  std::vector<std::string> options;
  for (const CLI::Option* opt : command->get_options())
    for (const auto& name : opt->get_lnames()) options.push_back("--" + name);
  std::vector<std::string_view> names(options.begin(), options.end());
  for (int i = 1; i < argc; ++i) {
    const std::string word = std::string(argv[i]).substr(0, std::string(argv[i]).find('='));
    if (word.rfind("--", 0) != 0 || std::find(options.begin(), options.end(), word) != options.end()) continue;
    if (std::string hint = did_you_mean(word, names); !hint.empty()) return what + hint;
  }
  return what;
}

}  // namespace dispatchctl::cli
