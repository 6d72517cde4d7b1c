// dispatchctl diff OLD NEW: which computed rows, registrations and
// operators changed between two (layered) registries.
#include "common.h"
#include "diff/diff.h"
#include "load/load_registry.h"
#include "render/diff_html.h"
#include "render/diff_render.h"
#include "util/errors.h"
#include "util/file_io.h"
#include "util/log.h"

namespace dispatchctl::cli {

namespace {

std::string label(const std::vector<std::string>& sources) {
  std::string out;
  for (const auto& s : sources) out += (out.empty() ? "" : " + ") + s;
  return out;
}

struct DiffCommand {
  std::vector<std::string> positional, old_sources, new_sources, ops, keys, touching;
  std::string format, output;
  bool summary = false;
  bool locations = false;

  int run() {
    if (!positional.empty() && (!old_sources.empty() || !new_sources.empty()))
      throw InputError("give either OLD NEW or --old/--new, not both");
    if (positional.size() == 2) {
      old_sources = {positional[0]};
      new_sources = {positional[1]};
    } else if (!positional.empty()) {
      throw InputError("diff takes two registries, OLD and NEW (got " +
                       std::to_string(positional.size()) + "); layer more with --old A --old B --new C");
    }
    if (old_sources.empty() || new_sources.empty())
      throw InputError("diff needs both sides: 'dispatchctl diff OLD NEW' or --old … --new …");
    if (!output.empty() && output != "-") require_writable_output(output);
    auto before = load_registry(old_sources);
    auto after = load_registry(new_sources);
    const DiffResult result = diff_registries(*before, *after, {ops, keys, locations, touching});
    const DiffRenderOptions options{summary, label(old_sources), label(new_sources), locations};
    const std::string text = format == "json"       ? diff_json_text(result, options)
                             : format == "html"     ? diff_html(result, options.old_label, options.new_label)
                             : format == "markdown" ? diff_markdown(result, options)
                                                    : diff_text(result, options);
    if (write_output(text, output)) log_note("wrote {}", output);
    keep_until_exit(std::move(before));
    keep_until_exit(std::move(after));
    return result.empty() ? 0 : 1;
  }
};

}  // namespace

void setup_diff(CLI::App& app, int& exit_code) {
  auto command = std::make_shared<DiffCommand>();
  CLI::App* sub = app.add_subcommand(
      "diff", "Show which dispatch-table rows, registrations and operators changed between two registries");
  sub->add_option("OLD_NEW", command->positional, "OLD and NEW: manifest files or builtin:VERSION")
      ->expected(0, 2);
  sub->add_option("--old", command->old_sources, "Old side, layered in order (repeatable)");
  sub->add_option("--new", command->new_sources, "New side, layered in order (repeatable)");
  sub->add_option("--op", command->ops, "Only operators matching: name, bare name or glob (repeatable)");
  sub->add_option("--key", command->keys, "Only rows at this runtime key (repeatable)");
  sub->add_option("--touching", command->touching,
                  "Only operators FILE (a manifest of --old/--new) defines or registers kernels for, and those "
                  "whose composites reach them (repeatable)")
      ->type_name("FILE");
  add_format_option(sub, command->format, {"text", "json", "html", "markdown"});
  add_output_option(sub, command->output, "The diff");
  sub->add_flag("--summary", command->summary,
                "Only the summary: counts, fallbacks, row changes per key (JSON: operators without rows)");
  sub->add_flag("--locations", command->locations,
                "Count a kernel whose file:line moved as changed (default: compare kernels without it)");
  sub->footer(
      "A row changed when what a call runs there differs: its tag, the key its registration sits at,\n"
      "or the kernel (compared by its debug text without file:line and without the _N of generated\n"
      "shards such as RegisterCPU_3.cpp; --locations compares the exact text; where a kernel was\n"
      "loaded from never counts). A C++ kernel replaced by a Python one (torch/_meta_registrations.py)\n"
      "is a change, marked '(python)'. A backend fallback that changed is reported once, with the\n"
      "number of rows it fills, not as a row of every operator. Keys only one release has are\n"
      "listed, not compared.\n"
      "A backend's view (--op, --key or --touching): the rows a changed fallback fills are listed per\n"
      "operator too, with both outcomes, and with --key an added or removed operator carries its rows\n"
      "at those keys (which new operators fail at PrivateUse1).\n"
      "Text: the summary first (one screen: counts, fallbacks, row changes per key), then one line\n"
      "per operator and kind of change, e.g.\n"
      "'aten::foo: CompositeExplicitAutograd now fills 69 keys that were math kernel', then the\n"
      "details. --format html writes one self-contained page: the coverage matrix of\n"
      "'dispatchctl report' showing only the changed cells, before -> after (for reviewing a PR).\n"
      "Exit status: 0 equal, 1 different, 2 bad input.\n\n"
      "Examples:\n"
      "  dispatchctl diff " + oldest_builtin() + " " + newest_builtin() + " --summary\n"
      "  dispatchctl diff " + oldest_builtin() + " " + newest_builtin() + " --op aten::nonzero --key Meta\n"
      "  dispatchctl diff --old " + newest_builtin() + " --new " + newest_builtin() + " --new my_backend.json\n"
      "  dispatchctl diff base.json head.json --key AutogradCPU --format json\n"
      "  dispatchctl diff --old builtin:2.6.0+cuda --old npu_2.6.json --new " + newest_builtin() + " --new npu.json \\\n"
      "      --key PrivateUse1 --key AutogradPrivateUse1 --touching npu.json\n"
      "  dispatchctl diff base.json head.json --format html > changes.html");
  sub->callback([command, &exit_code] { exit_code = command->run(); });
}

}  // namespace dispatchctl::cli
