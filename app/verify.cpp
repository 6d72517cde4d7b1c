// dispatchctl verify: recompute what an export recorded from the real PyTorch.
#include "common.h"
#include "registry/manifest.h"
#include "load/load_registry.h"
#include "render/verify_render.h"

namespace dispatchctl::cli {

namespace {
struct VerifyCommand {
  RegistryOptions registry;
  std::string format;
  size_t max_differences = 5;

  int run() const {
    if (registry.manifests.empty())
      throw InputError("verify: give the export to check with -m FILE (dispatchctl export -o FILE writes one)");
    RecordedDumps recorded;  // read while loading: each export is parsed once
    LoadRequest request = registry.request();
    request.on_manifest = [&recorded](const ManifestDocument& m) { read_recorded(m, recorded); };
    auto reg = load_registry(request);
    if (recorded.tables.empty() && recorded.states.empty())
      throw InputError(registry.manifests.back() +
                       ": no recorded tables or states to verify against; export with "
                       "'dispatchctl export -o FILE' (records them by default)");
    const VerifyResult result = verify_recorded(*reg, recorded, max_differences);
    write_stdout(format == "json" ? verify_json(result).dump(2) + "\n" : verify_text(result));
    return result.all_identical() ? 0 : 1;
  }
};
}  // namespace

void setup_verify(CLI::App& app, int& exit_code) {
  auto command = std::make_shared<VerifyCommand>();
  CLI::App* sub = app.add_subcommand(
      "verify", "Recompute every table and state an export recorded from the real PyTorch");
  sub->footer(
      "An export made by 'dispatchctl export' (or tools/dispatchctl-export.py) records, for every "
      "operator, what PyTorch itself printed (_dispatch_dump_table and _dispatch_dump). verify "
      "recomputes them from the export's registrations and release profile and compares byte for "
      "byte: the check that dispatchctl's answers hold for that release.\n"
      "Exit status: 0 all identical, 1 differences (the first ones shown as unified diffs), 2 bad input.\n\n"
      "Examples:\n"
      "  dispatchctl export -o mine.json && dispatchctl verify -m mine.json\n"
      "  dispatchctl verify -m mine.json --format json");
  add_registry_options(sub, command->registry);
  add_format_option(sub, command->format, {"text", "json"});
  sub->add_option("--max-differences", command->max_differences, "How many differences to show")
      ->capture_default_str();
  sub->callback([command, &exit_code] { exit_code = command->run(); });
}

}  // namespace dispatchctl::cli
