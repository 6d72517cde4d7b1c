#include "common.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>

#include "registry/sources.h"

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

}  // namespace dispatchctl::cli
