// dispatchctl export: the live registry of a Python's torch as a manifest.
#include "common.h"
#include "load/python_export.h"
#include "util/log.h"

namespace dispatchctl::cli {

void setup_export(CLI::App& app, int& exit_code) {
  auto request = std::make_shared<PythonExport>();
  auto output = std::make_shared<std::string>();
  CLI::App* sub = app.add_subcommand(
      "export", "Write a manifest of the live PyTorch registry of a Python, with its release profile");
  sub->footer(
      "Runs the exporter built into dispatchctl with that Python (no checkout needed). The manifest "
      "holds every operator, kernel and backend fallback, the release profile (keys, alias sets, "
      "probed behaviour), and what PyTorch printed for every operator, so 'dispatchctl verify' can "
      "check it. Works for any PyTorch from 1.13.\n\n"
      "Examples:\n"
      "  dispatchctl export -o torch.json\n"
      "  dispatchctl export --python /usr/bin/python3 --import my_ext -o my_torch.json\n"
      "  dispatchctl export --composite-calls -o torch.json   # + what composites call (minutes)\n"
      "  dispatchctl show 'my_ext::*' -m my_torch.json");
  sub->add_option("--python", request->interpreter, "The Python whose torch to export")
      ->capture_default_str()
      ->type_name("INTERPRETER");
  sub->add_option("--import", request->imports, "Import this module first (repeatable)")->type_name("MODULE");
  sub->add_option("-o,--output", *output, "Manifest to write (atomically)")->required()->type_name("FILE");
  sub->add_flag("--composite-calls", request->composite_calls,
                "Also record what every hand-written composite kernel and backward calls, by running them on "
                "sample inputs (docs/composite-calls.md; takes minutes)");
  sub->callback([request, output, &exit_code] {
    request->progress = [](const std::string& text) { log_note("{}", text); };
    run_python_export(*request, *output);
    log_note("wrote {}", *output);
    exit_code = 0;
  });
}

}  // namespace dispatchctl::cli
