// dispatchctl: a thin CLI over lib/. Parses the command line, runs one
// subcommand, maps errors to exit codes (0 ok, 1 findings, 2 bad input).
#include <cstdio>

#include "common.h"
#include "util/errors.h"

int main(int argc, char** argv) {
  using namespace dispatchctl;
  CLI::App app{
      "dispatchctl: inspect PyTorch dispatch tables. Which kernel runs for which dispatch key, "
      "and why; computed exactly as PyTorch 1.13 / 2.14 does.\n"
      "Without -m, commands use the real registry of PyTorch 2.14.1 built into this binary.\n"
      "Examples:\n"
      "  dispatchctl show aten::add\n"
      "  dispatchctl show aten::add.Tensor --format torch-table\n"
      "  dispatchctl show 'aten::add*' -m builtin:2.14.1 -m my_backend.json\n"
      "  dispatchctl keys --alias CompositeExplicitAutograd",
      "dispatchctl"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "dispatchctl 0.1.0");
  int exit_code = 0;
  cli::setup_show(app, exit_code);
  cli::setup_keys(app, exit_code);
  cli::setup_import(app, exit_code);
  cli::setup_registries(app, exit_code);
  cli::setup_explain(app, exit_code);
  cli::setup_has_kernel(app, exit_code);
  cli::setup_query(app, exit_code);
  cli::setup_trace(app, exit_code);
  cli::setup_diff(app, exit_code);
  cli::setup_check(app, exit_code);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::fprintf(stderr, "dispatchctl: error: %s (see 'dispatchctl --help')\n",
                 cli::parse_error_text(app, argc, argv, e.what()).c_str());
    return 2;
  } catch (const InputError& e) {
    std::fflush(stdout);
    std::fprintf(stderr, "dispatchctl: error: %s\n", e.what());
    return 2;
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "dispatchctl: error: out of memory\n");
    return 2;
  }
  if (std::fflush(stdout) != 0) {
    std::fprintf(stderr, "dispatchctl: error: cannot write output\n");
    return 2;
  }
  return exit_code;
}
