// dispatchctl check MANIFEST...: lint registrations for CI.
#include <filesystem>

#include "check/check.h"
#include "common.h"
#include "render/findings_render.h"
#include "util/errors.h"
#include "util/file_io.h"
#include "util/log.h"

namespace dispatchctl::cli {

namespace {

constexpr const char* k_default_config = "dispatchctl.json";

struct CheckCommand {
  std::vector<std::string> sources, require, ops, base;
  OperatorSetOptions opset;
  std::string format, config, output;
  LoadRequest::Layering layering = LoadRequest::Layering::Auto;
  bool no_config = false, warnings_as_errors = false, list_checks = false, include_base = false,
       show_existing = false;

  int run() {
    if (list_checks) {
      write_stdout(rules_text());
      return 0;
    }
    if (sources.empty())
      throw InputError("check needs at least one MANIFEST (a file or builtin:VERSION)");
    std::string config_path = config;
    // Present (even as a broken or looping link): read, so that a config that
    // cannot be read is an error, not silently ignored.
    std::error_code ec;
    if (config_path.empty() && !no_config && std::filesystem::symlink_status(k_default_config, ec).type() !=
                                                  std::filesystem::file_type::not_found && !ec)
      config_path = k_default_config;
    const CheckOptions options = check_options({config_path, require, op_patterns_of(opset, ops), base, opset.ops_from,
                                                opset.opset, warnings_as_errors, include_base, show_existing,
                                                layering});
    if (!output.empty() && output != "-") require_writable_output(output);
    CheckResult result = run_check(sources, options);
    for (const auto& note : result.notes) log_note("{}", note);
    const std::string text =
        format == "json"       ? findings_json(result).dump(2) + "\n"
        : format == "sarif"    ? findings_sarif(result, DISPATCHCTL_VERSION).dump(2) + "\n"
        : format == "github"   ? findings_github(result)
        : format == "markdown" ? findings_markdown(result, std::filesystem::current_path().string())
                               : findings_text(result, output_width());
    if (write_output(text, output)) log_note("wrote {}", output);
    keep_until_exit(std::move(result.registry));
    return result.has_errors() ? 1 : 0;
  }
};

}  // namespace

void setup_check(CLI::App& app, int& exit_code) {
  auto command = std::make_shared<CheckCommand>();
  CLI::App* sub = app.add_subcommand("check", "Lint registrations: overrides, ambiguities, dangling impls, required keys");
  sub->add_option("MANIFEST", command->sources,
                  "Sources as -m takes them (manifest files, -, builtin:VERSION, python[:P], torchgen:PATH, "
                  "torchgen-backend:FILE), layered in order (builtin: and python: first)");
  add_format_option(sub, command->format, {"text", "json", "sarif", "github", "markdown"});
  add_output_option(sub, command->output, "The findings");
  add_layer_options(sub, command->layering);
  sub->add_option("--require", command->require,
                  "Key every operator in scope must fill (repeatable); an alias key (Autograd) means "
                  "its runtime keys the operator has backend kernels for");
  sub->add_option("--op", command->ops, "Only operators matching: name, bare name or glob (repeatable)");
  add_operator_set_options(sub, command->opset);
  sub->add_option("--config", command->config, "Config file (default: ./dispatchctl.json if present)");
  sub->add_flag("--no-config", command->no_config, "Ignore ./dispatchctl.json");
  sub->add_flag("--warnings-as-errors", command->warnings_as_errors, "Report warnings as errors");
  sub->add_flag("--include-base", command->include_base,
                "Also lint the operators of builtin:/base registries the manifest files do not touch "
                "(and let no-autograd-kernel report PyTorch's own operators)");
  sub->add_option("--base", command->base,
                  "The sources before the change, layered like MANIFEST (repeatable; torchgen:git:REV reads "
                  "a checkout's YAML at REV): report only the findings the change brings");
  sub->add_flag("--show-existing", command->show_existing,
                "With --base: also list the findings the base already has (marked pre-existing)");
  sub->add_flag("--list-checks", command->list_checks, "List the rules with their default severity");
  sub->footer(
      "Scope: with manifest files, only the operators they touch are checked (a backend's\n"
      "manifest on top of " + newest_builtin() + " is linted, not PyTorch), even when one fails to\n"
      "load; --include-base or builtins only: all (no-autograd-kernel reports PyTorch's own\n"
      "operators only with --include-base). A load error is listed first and is always an\n"
      "error. Findings point at the registration's file:line:col. Exit status:\n"
      "0 clean (or only warnings/notes), 1 a finding at error severity, 2 bad input.\n\n"
      "dispatchctl.json: {\"dispatchctl_check\": 1, \"rules\": {\"kernel-override\": \"off\",\n"
      "  \"cia-with-backend-kernel\": \"error\"}, \"require\": [\"Meta\"], \"ops\": [\"myops::*\"],\n"
      "  \"warnings_as_errors\": false, \"include_base\": false}   (severities: off, note, warning, error)\n\n"
      "Examples:\n"
      "  dispatchctl check my_ops.json\n"
      "  dispatchctl check " + newest_builtin() + " my_backend.json --require AutogradPrivateUse1 --op 'aten::*'\n"
      "  dispatchctl check " + newest_builtin() + " my_ops.json --require Autograd --require Meta\n"
      "  dispatchctl check my_ops.json --format sarif > dispatchctl.sarif\n"
      "  dispatchctl check builtin:2.14.1 torchgen:. --base builtin:2.14.1 --base torchgen:git:origin/main\n"
      "  dispatchctl check --list-checks");
  sub->callback([command, &exit_code] { exit_code = command->run(); });
}

}  // namespace dispatchctl::cli
