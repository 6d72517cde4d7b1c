#include "common.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <cstdio>
#include <algorithm>
#include <cstdlib>

#include "registry/sources.h"
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

}  // namespace dispatchctl::cli
