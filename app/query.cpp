// dispatchctl query: operators selected by AND-combined predicates.
#include "common.h"
#include "builtin/builtin_catalogues.h"
#include "load/selection.h"
#include "query/predicates.h"
#include "registry/key_lookup.h"
#include "registry/op_select.h"
#include "render/query_render.h"
#include "util/log.h"

namespace dispatchctl::cli {

namespace {
struct QueryCommand {
  RegistryOptions registry;
  std::string key;
  bool registered = false, computed = false, works = false, fails = false, unknown = false;
  std::vector<std::string> tags, outcomes, registered_at, without, ops;
  OperatorSetOptions opset;
  bool count = false, json_alias = false;
  std::string format, output;

  int run() const {
    const bool json = json_alias || format == "json";
    auto reg = ops.empty() || opset.given() ? open_registry(registry)
                                            : load_and_select(registry.request(), op_patterns_of(opset, ops)).registry;
    const Catalogue& cat = reg->catalogue();
    Query q;
    if (!key.empty()) q.key = require_key(cat, key, "--key", &builtin_releases());
    // --format json counts --key's rows of the operators by outcome, a predicate or not.
    q.count_outcomes = json && q.key && !cat.is_alias(*q.key);
    q.registered = registered;
    q.computed = computed;
    q.works = works;
    q.fails = fails;
    q.unknown = unknown;
    for (const auto& t : tags) q.tags.push_back(require_tag(t));
    for (const auto& o : outcomes) q.outcomes.push_back(require_outcome(o));
    for (const auto& k : registered_at)
      q.registered_at.push_back(require_key(cat, k, "--registered-at", &builtin_releases()));
    for (const auto& k : without) q.without.push_back(require_key(cat, k, "--without", &builtin_releases()));
    q.op_patterns = operator_scope(*reg, opset, ops).patterns;
    const QueryAnswer answer = answer_query(*reg, q);
    const auto& found = answer.found;
    // --works leaves out Python kernels (unknown); say how many, so "no" is not read as "none".
    const size_t left_out = answer.python_left_out.value_or(0);
    std::optional<QueryOutcomes> counts;
    if (answer.counts) counts = QueryOutcomes{*q.key, *answer.counts};
    const std::string text =
        json ? query_json_text(*reg, found, answer.python_left_out, counts)
        : count ? std::to_string(found.size()) + "\n"
                : query_names_text(found);
    if (write_output(text, output)) log_note("wrote {}", output);
    if (left_out && !json)
      log_note("{} operator{} whose {} row is a python kernel not listed: whether {} is unknown (--unknown "
               "lists them)",
               left_out, left_out == 1 ? "" : "s", cat.name(*q.key), left_out == 1 ? "it works" : "they work");
    return found.empty() ? 1 : 0;
  }
};
}  // namespace

void setup_query(CLI::App& app, int& exit_code) {
  auto command = std::make_shared<QueryCommand>();
  CLI::App* sub = app.add_subcommand("query", "List the operators that match every predicate given");
  sub->footer(
      "Predicates combine with AND. --registered, --computed, --tag, --works and --fails read the key\n"
      "given with --key:\n"
      "  --registered  a kernel registered at exactly K (_dispatch_has_kernel_for_dispatch_key)\n"
      "  --computed    K's row holds a kernel (_dispatch_has_computed_kernel_for_dispatch_key)\n"
      "  --tag TAG     K's row has this tag: kernel, 'default backend kernel', 'math kernel',\n"
      "                'backend fallback', missing, … (repeat: any of them)\n"
      "  --outcome O   what K's row runs is O (repeat: any of them): direct, composite, fallback,\n"
      "                fallthrough, python, autograd_not_implemented, raises, ambiguous, missing\n"
      "  --works       K's row works: outcome direct, composite, fallback or fallthrough\n"
      "                (README, What working means)\n"
      "  --fails       K's row is missing or its kernel raises (raises, ambiguous, missing)\n"
      "  --unknown     K's row is a python kernel (torch/_meta_registrations.py, torch.library):\n"
      "                whether it works is unknown, so --works leaves it out (Python meta kernels\n"
      "                raise for data-dependent ops such as aten::nonzero) and says how many on stderr\n"
      "Output: sorted names, one per line (--count: the number; --format json, with \"outcomes\": K's\n"
      "rows of every operator in scope by outcome, as report and explain --key count them; --key alone\n"
      "is then a question). Scope: --op, --ops-from FILE (a model's operators, exact names), --opset\n"
      "core. Exit status: 0 when some operator matches, 1 when none, 2 on bad input.\n"
      "\nExamples:\n"
      "  dispatchctl query --key Meta --fails --op 'aten::*'            # aten ops with no working Meta kernel\n"
      "  dispatchctl query --registered-at CompositeImplicitAutograd --registered-at CPU\n"
      "  dispatchctl query --key Meta --works --without Meta            # a Python meta kernel would be redundant\n"
      "  dispatchctl query --key Meta --unknown --op 'aten::*'          # rows that are python kernels\n"
      "  dispatchctl query --key AutogradCPU --outcome autograd_not_implemented --count\n"
      "  dispatchctl query --key AutogradOther --tag 'ambiguous autogradother'\n"
      "  dispatchctl query --key PrivateUse1 --opset core --format json -m my_backend.json\n"
      "  dispatchctl query --key Meta --registered --count -m " + oldest_builtin() + "");
  sub->add_option("-k,--key", command->key,
                  "The key --registered/--computed/--tag/--outcome/--works/--fails/--unknown read");
  sub->add_flag("--registered", command->registered, "A kernel registered at exactly --key");
  sub->add_flag("--computed", command->computed, "--key's computed row holds a kernel");
  sub->add_option("--tag", command->tags, "--key's row has this tag (repeatable: any)")->type_name("TAG");
  sub->add_option("--outcome", command->outcomes, "--key's row has this outcome (repeatable: any)")
      ->type_name("NAME");
  sub->add_flag("--works", command->works, "--key's row works (direct, composite, fallback, fallthrough)");
  sub->add_flag("--fails", command->fails, "--key's row is missing or its kernel raises");
  sub->add_flag("--unknown", command->unknown, "--key's row is a python kernel: works or not is unknown");
  sub->add_option("--registered-at", command->registered_at, "A kernel registered at exactly K (repeatable: all)")
      ->type_name("K");
  sub->add_option("--without", command->without, "No kernel registered at exactly K (repeatable)")->type_name("K");
  sub->add_option("--op", command->ops, "Only operators matching PATTERN (repeatable: any)")->type_name("PATTERN");
  sub->add_flag("--count", command->count, "Print the number of operators only");
  add_format_option(sub, command->format, {"text", "json"});
  sub->add_flag("--json", command->json_alias, "Same as --format json")->group("");
  add_operator_set_options(sub, command->opset);
  add_output_option(sub, command->output, "The list (or JSON)");
  add_registry_options(sub, command->registry);
  sub->callback([command, &exit_code] { exit_code = command->run(); });
}

}  // namespace dispatchctl::cli
