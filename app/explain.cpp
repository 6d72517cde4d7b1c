// dispatchctl explain [OP] --key K: why a row holds the kernel it holds
// (or none), and how a key fares across the registry.
#include "builtin/builtin.h"
#include "common.h"
#include "util/log.h"
#include "builtin/builtin_catalogues.h"
#include "query/predicates.h"
#include "explain/key_report.h"
#include "load/selection.h"
#include "registry/op_select.h"
#include "registry/key_lookup.h"
#include "render/explain_render.h"
#include "render/key_report_render.h"
#include "util/errors.h"

namespace dispatchctl::cli {

namespace {
struct ExplainCommand {
  RegistryOptions registry;
  std::vector<std::string> ops;
  std::string key;
  std::string format, output;
  std::vector<std::string> list;
  std::size_t limit = 0;
  std::vector<std::string> op_filter;
  OperatorSetOptions opset;

  int run() const {
    if (!ops.empty() && (!list.empty() || limit || !op_filter.empty() || opset.given()))
      throw InputError("--list, --limit, --op, --ops-from and --opset describe the whole registry; drop OP, or drop "
                       "them");
    return ops.empty() ? run_key() : run_operators();
  }

  int run_operators() const {
    auto [reg, selected] = load_and_select(registry.request(), ops);
    const Key k = require_key(reg->catalogue(), key, "--key", &builtin_releases());
    // As show and has-kernel: a CUDA key on a CPU-only build, a predicted registry.
    const std::string build_note = not_compiled_note(reg->catalogue(), build_of(*reg), k);
    const std::string registry_note = predicted_registry_note(reg->sources);
    std::string out;
    if (format == "json") {
      std::vector<OperatorKeyExplanation> explanations;
      for (const Operator* op : selected) explanations.push_back(explain_operator_key(*reg, *op, k));
      out = explain_json_document_text(*reg, explanations, build_note, registry_note);
    } else {
      const ExplainTextOptions options{stdout_is_color_terminal(), static_cast<int>(output_width())};
      for (const std::string& note : {build_note, registry_note})
        if (!note.empty()) log_note("{}", note);  // notes go to stderr
      for (const Operator* op : selected) {
        if (op != selected.front()) out += "\n";
        append_explain_text(out, *reg, explain_operator_key(*reg, *op, k), options);
      }
    }
    if (write_output(out, output)) log_note("wrote {}", output);
    return 0;
  }

  int run_key() const {
    auto reg = op_filter.empty() || opset.given()
                   ? open_registry(registry)
                   : load_and_select(registry.request(), op_patterns_of(opset, op_filter)).registry;
    const Catalogue& cat = reg->catalogue();
    const Key k = require_key(cat, key, "--key", &builtin_releases());
    const OperatorScope scope = operator_scope(*reg, opset, op_filter);
    const auto selected = scope.patterns.empty() ? reg->sorted_operators() : select_operators(*reg, scope.patterns);
    if (!scope.label.empty()) log_note("operators: {}", scope.label);
    KeyReportOptions options;
    options.limit = limit;
    options.width = static_cast<int>(output_width());
    for (const auto& name : list)
      for (auto& id : resolve_group(cat, k, name)) options.list.push_back(id);
    const KeyReport report = key_report(*reg, k, selected);
    std::string out;
    if (format == "json") out = key_report_json(*reg, report, options).dump(2) + "\n";
    else append_key_report_text(out, *reg, report, options);
    if (write_output(out, output)) log_note("wrote {}", output);
    return 0;
  }
};
}  // namespace

void setup_explain(CLI::App& app, int& exit_code) {
  auto command = std::make_shared<ExplainCommand>();
  CLI::App* sub = app.add_subcommand("explain", "Explain why a dispatch key runs the kernel it runs, or none");
  sub->footer(
      "With OP: the verdict first, in PyTorch's words (its table line and tag), then every rule of the\n"
      "table algorithm in order with its outcome: direct registration,\n"
      "CompositeExplicitAutogradNonFunctional, CompositeExplicitAutograd, the nested alias,\n"
      "CompositeImplicitAutograd (and what blocked it), Autograd, FuncTorchBatchedDecomposition, the\n"
      "backend fallback. Inactive (overridden) kernels, fallthroughs, AutogradOther ambiguity and quirks\n"
      "are noted. A missing row shows the error PyTorch raises at call time and the registrations that\n"
      "would fill it. An alias key (or a building block such as Dense) explains each runtime key it\n"
      "covers, one line per outcome.\n"
      "Without OP: how K fares across the registry: its place in key order, the aliases covering it,\n"
      "its backend fallback, and the operators by outcome with counts and percentages.\n"
      "\nExamples:\n"
      "  dispatchctl explain aten::add.Tensor --key AutogradCPU\n"
      "  dispatchctl explain aten::linear --key Meta\n"
      "  dispatchctl explain aten::linear --key CompositeImplicitAutograd\n"
      "  dispatchctl explain my::op --key AutogradOther -m " + newest_builtin() + " -m my_backend.json\n"
      "  dispatchctl explain --key Meta\n"
      "  dispatchctl explain --key Meta --op 'aten::*' --list fallback --limit 20\n"
      "  dispatchctl explain --key AutogradCPU --list 'math kernel' -m " + oldest_builtin() + "\n"
      "  dispatchctl explain aten::add.Tensor --key CPU --format json");
  sub->add_option("OP", command->ops, "Operator: full name, bare name (all overloads) or glob; omit for the whole registry");
  sub->add_option("-k,--key", command->key, "Dispatch key: runtime key, alias key or building block")->required();
  add_registry_options(sub, command->registry);
  add_format_option(sub, command->format, {"text", "json"});
  add_output_option(sub, command->output, "The explanation (or JSON)");
  sub->add_option("--list", command->list,
                  "Without OP: list the operators of an outcome group (kernel, CompositeImplicitAutograd or "
                  "CIA, fallback, fallthrough, ambiguous, missing, a tag such as 'math kernel', or all)")
      ->type_name("GROUP");
  sub->add_option("--limit", command->limit, "Without OP: list at most N operators per group")->type_name("N");
  sub->add_option("--op", command->op_filter, "Without OP: only operators matching PATTERN (repeatable)")
      ->type_name("PATTERN");
  add_operator_set_options(sub, command->opset);
  sub->callback([command, &exit_code] { exit_code = command->run(); });
}

}  // namespace dispatchctl::cli
