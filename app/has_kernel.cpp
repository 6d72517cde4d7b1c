// dispatchctl has-kernel OP --key K [--computed]: PyTorch's
// _dispatch_has_kernel_for_dispatch_key and
// _dispatch_has_computed_kernel_for_dispatch_key (docs/dispatch-semantics.md §7).
#include "builtin/builtin.h"
#include "common.h"
#include "builtin/builtin_catalogues.h"
#include "load/selection.h"
#include "query/has_kernel.h"
#include "query/has_kernel_backward.h"
#include "table/backward_plan.h"
#include "registry/key_lookup.h"
#include "registry/op_select.h"
#include "render/has_kernel_render.h"
#include "util/errors.h"
#include "util/log.h"

namespace dispatchctl::cli {

namespace {
struct HasKernelCommand {
  RegistryOptions registry;
  std::string op_name;
  std::string key;
  std::string format;
  bool computed = false;
  bool works = false;
  bool backward = false;
  bool json = false;

  int run() const {
    if (computed && works) throw InputError("--computed and --works ask different questions; use one");
    if (backward && !works) throw InputError("--backward asks whether a call and its backward work: give --works too");
    // --works answers the backward too, which runs out.sum().
    std::vector<std::string> wanted{op_name};
    if (works) wanted.emplace_back(k_backward_sum_operator);
    auto [reg, loaded] = load_and_select(registry.request(), wanted);
    std::vector<const Operator*> selected = works ? select_operators(*reg, {op_name}) : loaded;
    const Catalogue& cat = reg->catalogue();
    // aten::nonzero is also the unnamed overload's full name: answer for it.
    if (const Operator* exact = reg->find(canonical_op_pattern(op_name)); exact && selected.size() > 1) selected = {exact};
    if (selected.size() != 1)
      throw InputError("'" + op_name + "' names " + std::to_string(selected.size()) +
                       " operators; has-kernel answers for one, e.g. '" + selected.front()->name + "'");
    const Operator& op = *selected.front();
    const Key k = require_key(cat, key, "--key", &builtin_releases());
    const HasKernelQuestion question = computed ? HasKernelQuestion::Computed
                                       : works  ? HasKernelQuestion::Works
                                                : HasKernelQuestion::Registered;
    HasKernelResult result = answer_has_kernel(*reg, op, k, question, build_of(*reg));
    result.registry_note = predicted_registry_note(reg->sources);
    if (works) result.backward = answer_has_kernel_backward(*reg, op, k, result);
    if (backward) {
      // Forward and backward together: no or unknown when either is; yes only when both are.
      // A backward that raises after a forward that may only raise is a no either way.
      result.answer_includes_backward = true;
      if (result.backward && result.backward->answer == HasKernelAnswer::No) result.answer = HasKernelAnswer::No;
      else if (result.answer == HasKernelAnswer::Yes)
        result.answer = result.backward ? result.backward->answer : HasKernelAnswer::Unknown;
    }
    // -q, before or after the command: the exit status is the answer.
    if (quiet_requested()) return exit_status(result.answer);
    if (json || format == "json") {
      write_stdout(has_kernel_json(*reg, result).dump(2) + "\n");
    } else {
      std::string out = std::string(answer_word(result.answer)) + ": " + has_kernel_text(cat, result) + "\n";
      if (const std::string backward_line = has_kernel_backward_text(result); !backward_line.empty())
        out += "backward: " + backward_line + "\n";
      write_stdout(out);
      if (!result.build_note.empty()) log_note("{}", result.build_note);  // notes go to stderr
      if (!result.registry_note.empty()) log_note("{}", result.registry_note);
    }
    return exit_status(result.answer);
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
      "With --works: does a call that reaches K's row run a kernel that returns: yes for a C++\n"
      "kernel, no for a missing row or a kernel known to raise (the ambiguous AutogradOther kernel,\n"
      "2.x's Meta fallback), unknown for a python kernel (torch/_meta_registrations.py,\n"
      "torch.library): Python meta kernels raise for data-dependent operators, and dispatchctl\n"
      "cannot tell; unknown exits 1, so a script never reads it as yes.\n"
      "A key of a backend the registry has no kernels for (CUDA on the built-in CPU-only builds)\n"
      "gets a note: the answer is a CPU-only PyTorch's; export your CUDA build for CUDA answers.\n"
      "Exit status: 0 yes, 1 no or unknown, 2 error. The answer is printed too (-q, before or after\n"
      "the command: only the exit status; --json / --format json: {operator, key, question, answer, text, ...}).\n"
      "With --works, for a differentiable operator at a backend key (PrivateUse1) or its autograd key, a\n"
      "second answer on a second line: does out.sum().backward() after the call work (JSON backward: {answer, assumed,\n"
      "raises_at, error, error_caveat, text}): what the sum, the gradient seed and the nodes call, as\n"
      "recorded from the release (docs/composite-calls.md), followed at the autograd key. A yes is always\n"
      "assumed (AccumulateGrad is not recorded); a no raised by out.sum() or SumBackward0 alone is\n"
      "assumed too (a 0-dim output runs out.backward(), which skips them). --backward makes the main\n"
      "answer (and the exit status) forward and backward together: yes only when both are.\n"
      "\nExamples:\n"
      "  dispatchctl has-kernel aten::add.Tensor --key CPU\n"
      "  dispatchctl has-kernel aten::linear --key Meta --computed\n"
      "  dispatchctl has-kernel aten::nonzero --key Meta --works --json    # unknown: a python kernel\n"
      "  dispatchctl has-kernel aten::add.Tensor --key CompositeExplicitAutograd -m " + oldest_builtin() + "\n"
      "  dispatchctl has-kernel -q my::op --key Meta -m my_backend.json && echo registered");
  sub->add_option("OP", command->op_name, "Operator, full name (aten::add.Tensor)")->required();
  sub->add_option("-k,--key", command->key, "Dispatch key")->required();
  sub->add_flag("--computed", command->computed, "Ask about the computed row instead of a registration");
  sub->add_flag("--works", command->works, "Does K's row run a kernel that returns (yes/no/unknown)");
  sub->add_flag("--backward", command->backward,
                "With --works: the answer is whether the call and out.sum().backward() after it both work");
  sub->add_flag("--json", command->json, "Same as --format json")->group("");
  add_format_option(sub, command->format, {"text", "json"});
  add_registry_options(sub, command->registry);
  sub->callback([command, &exit_code] { exit_code = command->run(); });
}

}  // namespace dispatchctl::cli
