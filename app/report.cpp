// dispatchctl report: operator coverage of dispatch keys as one
// self-contained HTML page (or the model as JSON).
#include "common.h"
#include "render/report_html.h"
#include "render/report_summary.h"
#include "report/summary.h"
#include "util/file_io.h"
#include "util/log.h"

namespace dispatchctl::cli {

namespace {
struct ReportCommand {
  RegistryOptions registry;
  std::vector<std::string> keys, ops;
  OperatorSetOptions opset;
  std::string format, output, badge;

  int run() const {
    auto reg = open_registry(registry);
    const OperatorScope scope = operator_scope(*reg, opset, ops);
    CoverageReport report = build_coverage(*reg, {keys, scope.patterns});
    report.scope = scope.label;
    const bool summarized = format == "markdown" || format == "svg" || !badge.empty();
    const CoverageSummary summary = summarized ? summarize_coverage(report) : CoverageSummary{};
    if (!badge.empty()) require_writable_output(badge);
    const std::string text = format == "json"       ? coverage_json_text(report)
                             : format == "markdown" ? coverage_markdown(report, summary)
                             : format == "svg"      ? coverage_badge_svg(report, summary)
                                                    : coverage_html(report);
    if (!badge.empty() && write_output(coverage_badge_svg(report, summary), badge)) log_note("wrote {}", badge);
    if (write_output(text, output))
      log_note("wrote {}: {} operators x {} keys, {:.1f} MB", output, report.operators.size(), report.keys.size(),
               static_cast<double>(text.size()) / 1e6);
    keep_until_exit(std::move(reg));
    return 0;
  }
};
}  // namespace

void setup_report(CLI::App& app, int& exit_code) {
  auto command = std::make_shared<ReportCommand>();
  CLI::App* sub = app.add_subcommand(
      "report", "Write an HTML coverage page: operators x dispatch keys, coloured by outcome");
  sub->footer(
      "One self-contained HTML file (inline CSS and JS, nothing fetched; open it from disk):\n"
      "a matrix of operators x keys coloured by outcome (direct kernel, composite/alias kernel,\n"
      "Python kernel, backend fallback, fallthrough, raises, ambiguous, missing), per-key\n"
      "totals, a filter box (substring or glob), sorting (click a key), and on hover or click\n"
      "the cell's provenance and PyTorch's _dispatch_dump_table line. Every operator has an\n"
      "anchor: coverage.html#aten::add.Tensor.\n"
      "Default keys: the backend keys some operator has a kernel at, plus Meta, and the\n"
      "Autograd key of each. --format json writes the model instead; --format markdown a one-screen\n"
      "summary for a README or CI job summary (per key: works, forward only, unknown, fails; the\n"
      "first backend key's failing operators and what to implement first: the operators whose kernel\n"
      "fixes the most failing rows); --format svg (or --badge FILE beside another format) a badge.\n"
      "--opset core and --ops-from FILE make the operators, and the percentages, a backend's set.\n\n"
      "Examples:\n"
      "  dispatchctl report -o coverage.html\n"
      "  dispatchctl report --key Meta --key CPU -o meta_cpu.html\n"
      "  dispatchctl report -m " + newest_builtin() + " -m my_backend.json --key PrivateUse1 \\\n"
      "      --key AutogradPrivateUse1 --op 'aten::*' -o my_backend_coverage.html\n"
      "  dispatchctl report --key Meta --format json | jq '.keys[0].percent'\n"
      "  dispatchctl report -m my_backend.json --key PrivateUse1 --key AutogradPrivateUse1 --opset core \\\n"
      "      --format markdown --badge coverage.svg >> summary.md");
  add_registry_options(sub, command->registry);
  sub->add_option("--key", command->keys, "A column: a runtime key such as CPU or AutogradCPU (repeatable)")
      ->type_name("KEY");
  sub->add_option("--op", command->ops, "Only operators matching: name, bare name or glob (repeatable)")
      ->type_name("PATTERN");
  add_operator_set_options(sub, command->opset);
  add_format_option(sub, command->format, {"html", "json", "markdown", "svg"});
  sub->add_option("--badge", command->badge, "Also write the SVG badge to FILE (written atomically)")
      ->type_name("FILE");
  add_output_option(sub, command->output, "Page (or JSON)");
  sub->callback([command, &exit_code] { exit_code = command->run(); });
}

}  // namespace dispatchctl::cli
