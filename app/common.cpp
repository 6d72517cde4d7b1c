#include "common.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>

#include "registry/python_export.h"
#include "registry/sources.h"

namespace dispatchctl::cli {

void add_registry_options(CLI::App* command, RegistryOptions& options) {
  command->add_option("-m,--manifest", options.manifests,
                      "Registrations to load, in order: a manifest (.json, may be gzipped) or "
                      "builtin:VERSION (builtin:2.14.1, builtin:1.13.1), or python[:INTERPRETER] "
                      "(that Python's live torch, exported and cached). Repeat to layer. A first "
                      "manifest that defines no aten:: operator is layered over its release's "
                      "built-in registry. Default: builtin:2.14.1")
      ->type_name("FILE");
  command->add_flag_callback(
      "--bare", [] { load_options().bare = true; },
      "Load -m files as they are: do not layer a partial manifest over its release's registry");
}

void install_load_hooks() {
  load_options().note = [](const std::string& text) {
    std::fprintf(stderr, "dispatchctl: note: %s\n", text.c_str());
  };
  load_options().python_export = [](const std::string& interpreter) {
    PythonExport request;
    if (!interpreter.empty()) request.interpreter = interpreter;
    request.progress = [](const std::string& text) {
      std::fprintf(stderr, "dispatchctl: %s\n", text.c_str());
    };
    return cached_python_export(request);
  };
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
