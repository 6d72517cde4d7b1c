// dispatchctl: a thin CLI over lib/. Parses the command line, runs one
// subcommand, maps errors to exit codes (0 ok, 1 findings, 2 bad input, 3 an
// internal error: a bug to report).
#include <chrono>
#include <cstdio>
#include <string>
#include <string_view>

#include "builtin/builtin.h"
#include "common.h"
#include "util/command_word.h"
#include "util/errors.h"

namespace {

struct Command {
  const char* name;
  void (*setup)(CLI::App&, int&);
};
constexpr Command k_commands[] = {
    {"show", dispatchctl::cli::setup_show},         {"keys", dispatchctl::cli::setup_keys},
    {"import", dispatchctl::cli::setup_import},     {"registries", dispatchctl::cli::setup_registries},
    {"explain", dispatchctl::cli::setup_explain},   {"has-kernel", dispatchctl::cli::setup_has_kernel},
    {"query", dispatchctl::cli::setup_query},       {"trace", dispatchctl::cli::setup_trace},
    {"diff", dispatchctl::cli::setup_diff},         {"check", dispatchctl::cli::setup_check},
    {"verify", dispatchctl::cli::setup_verify},     {"export", dispatchctl::cli::setup_export},
    {"report", dispatchctl::cli::setup_report},     {"completion", dispatchctl::cli::setup_completion},
};

// The subcommand the command line names, when only it needs setting up
// (util/command_word.h): main's own options are asked of `app`, so one that
// takes a value never has its value taken for the command. `completion`
// describes the whole CLI, and help, a mistyped command or none needs every
// command: nullptr then.
const Command* command_named(const CLI::App& app, int argc, char** argv) {
  const auto main_option = [&app](std::string_view name) {
    const CLI::Option* option = app.get_option_no_throw(std::string(name));
    if (!option) return dispatchctl::MainOption::Unknown;
    return option->get_items_expected_min() > 0 ? dispatchctl::MainOption::TakesValue : dispatchctl::MainOption::Flag;
  };
  const auto at = dispatchctl::command_word(argc, argv, main_option);
  if (!at) return nullptr;
  for (const Command& c : k_commands)
    if (std::string_view(argv[*at]) == c.name) return std::string_view(c.name) == "completion" ? nullptr : &c;
  return nullptr;
}

void setup_commands(CLI::App& app, int& exit_code, const Command* only) {
  if (only) return only->setup(app, exit_code);
  for (const Command& c : k_commands) c.setup(app, exit_code);
}

}  // namespace

int main(int argc, char** argv) {
  using namespace dispatchctl;
  CLI::App app{
      "dispatchctl: inspect PyTorch dispatch tables. Which kernel runs for which dispatch key, "
      "and why; computed exactly as PyTorch does, for any release (built in: " + builtin_registry_names() +
      "; others through -m python or an export with its release profile).\n"
      "Without -m, commands use " + std::string(k_default_registry) + ", the newest real CPU-only build built in.\n"
      "-m takes a manifest FILE, builtin:VERSION, python[:INTERPRETER], torchgen:PATH or\n"
      "torchgen-backend:FILE; a manifest without aten:: operators is layered over its release\n"
      "(--bare: alone).\n"
      "Examples:\n"
      "  dispatchctl show aten::add\n"
      "  dispatchctl show aten::add.Tensor --format torch-table\n"
      "  dispatchctl show 'aten::add*' -m " + cli::newest_builtin() + " -m my_backend.json\n"
      "  dispatchctl show aten::add -m python\n"
      "  dispatchctl keys --alias CompositeExplicitAutograd",
      "dispatchctl"};
  app.formatter(cli::make_help_formatter());
  app.require_subcommand(1);
  const auto started = std::chrono::steady_clock::now();
  cli::LoggingOptions logging;
  cli::add_logging_options(app, logging);
  // Runs after parsing and before the subcommand's callback.
  app.parse_complete_callback([&logging] { cli::setup_logging(logging); });
  app.set_version_flag("--version", "dispatchctl " DISPATCHCTL_VERSION);
  int exit_code = 0;
  setup_commands(app, exit_code, command_named(app, argc, argv));
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    cli::log_error(cli::parse_error_text(app, argc, argv, e.what()) + " (see 'dispatchctl --help')");
    return 2;
  } catch (const InputError& e) {
    cli::log_error(e.what());
    return 2;
  } catch (const std::bad_alloc&) {
    cli::log_error("out of memory");
    return 2;
  } catch (const std::exception& e) {
    // A bug of dispatchctl, not of the input: said as such, never an abort.
    cli::log_error(std::string("internal error: ") + e.what() +
                   "; please report it with the command line that caused it");
    return 3;
  } catch (...) {
    cli::log_error("internal error (unknown exception); please report it with the command line that caused it");
    return 3;
  }
  if (std::fflush(stdout) != 0) {
    cli::log_error("cannot write output");
    return 2;
  }
  const std::chrono::duration<double, std::milli> elapsed = std::chrono::steady_clock::now() - started;
  cli::log_phase_timings(elapsed.count());
  return exit_code;
}
