// dispatchctl has-kernel OP --key K [--computed]: PyTorch's
// _dispatch_has_kernel_for_dispatch_key and
// _dispatch_has_computed_kernel_for_dispatch_key (dispatch-semantics.md §7).
#include "common.h"
#include "query/op_select.h"
#include "query/predicates.h"
#include "registry/key_lookup.h"
#include "util/errors.h"

namespace dispatchctl::cli {

namespace {
struct HasKernelCommand {
  RegistryOptions registry;
  std::string op_name;
  std::string key;
  bool computed = false;
  bool quiet = false;

  int run() const {
    auto [reg, selected] = load_and_select(registry.manifests, {op_name});
    const Catalogue& cat = reg->catalogue();
    // aten::nonzero is also the unnamed overload's full name: answer for it.
    if (const Operator* exact = reg->find(canonical_op_pattern(op_name)); exact && selected.size() > 1) selected = {exact};
    if (selected.size() != 1)
      throw InputError("'" + op_name + "' names " + std::to_string(selected.size()) +
                       " operators; has-kernel answers for one, e.g. '" + selected.front()->name + "'");
    const Operator& op = *selected.front();
    const Key k = require_key(cat, key, "--key");
    std::string answer;
    bool yes = false;
    if (!computed) {
      yes = has_kernel_for_dispatch_key(op, k);
      answer = yes ? "yes: " + op.name + " has a kernel registered at " + cat.name(k)
                   : "no: " + op.name + " has no kernel registered at exactly " + cat.name(k) +
                         " (--computed asks whether its row holds a kernel)";
    } else {
      const Key row_key = computed_row_key(cat, k);  // alias key: PyTorch's error
      const Row row = compute_row(*reg, op, row_key);
      yes = row.valid();
      answer = std::string(yes ? "yes" : "no") + ": the " + cat.name(row_key) + " row of " + op.name +
               (yes ? " holds a kernel [" + std::string(tag_text(row.rule)) + "]" : " is missing");
      if (row_key != k) answer += " (" + cat.name(k) + " answers for its " + cat.name(row_key) + " instance, as in PyTorch)";
      if (yes && row_known_to_raise(cat, row)) answer += "; note: that kernel raises when called";
      else if (yes && row.fallthrough()) answer += "; note: a fallthrough, a call skips the key";
    }
    if (!quiet) write_stdout(answer + "\n");
    return yes ? 0 : 1;
  }
};
}  // namespace

void setup_has_kernel(CLI::App& app, int& exit_code) {
  auto command = std::make_shared<HasKernelCommand>();
  CLI::App* sub = app.add_subcommand("has-kernel", "Answer PyTorch's has-kernel questions for one operator and key");
  sub->footer(
      "Without --computed: torch._C._dispatch_has_kernel_for_dispatch_key: is a kernel registered at\n"
      "exactly K (alias keys and building blocks allowed; propagation and fallbacks ignored).\n"
      "With --computed: torch._C._dispatch_has_computed_kernel_for_dispatch_key: does K's row hold a\n"
      "valid kernel (propagated alias kernels, backend fallbacks, fallthroughs and the ambiguous\n"
      "kernel count). An alias key is an error, as in PyTorch; a building block answers for its CPU\n"
      "instance (Dense = CPU). Like PyTorch, --computed reads the live table (registrations replayed\n"
      "in order), which differs from _dispatch_dump_table for stale rows.\n"
      "Exit status: 0 yes, 1 no, 2 error. The answer is printed too (-q: only the exit status).\n"
      "\nExamples:\n"
      "  dispatchctl has-kernel aten::add.Tensor --key CPU\n"
      "  dispatchctl has-kernel aten::linear --key Meta --computed\n"
      "  dispatchctl has-kernel aten::add.Tensor --key CompositeExplicitAutograd -m builtin:1.13.1\n"
      "  dispatchctl has-kernel -q my::op --key Meta -m my_backend.json && echo registered");
  sub->add_option("OP", command->op_name, "Operator, full name (aten::add.Tensor)")->required();
  sub->add_option("-k,--key", command->key, "Dispatch key")->required();
  sub->add_flag("--computed", command->computed, "Ask about the computed row instead of a registration");
  sub->add_flag("-q,--quiet", command->quiet, "Print nothing; answer with the exit status only");
  add_registry_options(sub, command->registry);
  sub->callback([command, &exit_code] { exit_code = command->run(); });
}

}  // namespace dispatchctl::cli
