// dispatchctl has-kernel OP --key K [--computed]: PyTorch's
// _dispatch_has_kernel_for_dispatch_key and
// _dispatch_has_computed_kernel_for_dispatch_key (dispatch-semantics.md §7).
#include <nlohmann/json.hpp>

#include "common.h"
#include "explain/kernel_kind.h"
#include "query/op_select.h"
#include "query/predicates.h"
#include "registry/key_lookup.h"
#include "render/json_document.h"
#include "render/show_render.h"
#include "util/errors.h"

namespace dispatchctl::cli {

namespace {
struct HasKernelCommand {
  RegistryOptions registry;
  std::string op_name;
  std::string key;
  std::string format;
  bool computed = false;
  bool works = false;
  bool json = false;
  bool quiet = false;

  int run() const {
    if (computed && works) throw InputError("--computed and --works ask different questions; use one");
    auto [reg, selected] = load_and_select(registry.manifests, {op_name});
    const Catalogue& cat = reg->catalogue();
    // aten::nonzero is also the unnamed overload's full name: answer for it.
    if (const Operator* exact = reg->find(canonical_op_pattern(op_name)); exact && selected.size() > 1) selected = {exact};
    if (selected.size() != 1)
      throw InputError("'" + op_name + "' names " + std::to_string(selected.size()) +
                       " operators; has-kernel answers for one, e.g. '" + selected.front()->name + "'");
    const Operator& op = *selected.front();
    const Key k = require_key(cat, key, "--key");
    nlohmann::ordered_json doc = json_document();
    doc["torch_version"] = reg->torch_version;
    doc["operator"] = op.name;
    doc["key"] = cat.name(k);
    std::string answer, text;
    if (!computed && !works) {
      doc["question"] = "registered";
      answer = has_kernel_for_dispatch_key(op, k) ? "yes" : "no";
      text = answer == "yes" ? op.name + " has a kernel registered at " + cat.name(k)
                             : op.name + " has no kernel registered at exactly " + cat.name(k) +
                                   " (--computed asks whether its row holds a kernel)";
      if (const Kernel* kernel = op.active(k); kernel && is_python_kernel(*kernel)) {
        text += " (a python kernel: " + kernel->debug + ")";
        doc["language"] = "python";
      }
    } else {
      doc["question"] = computed ? "computed" : "works";
      const Key row_key = computed_row_key(cat, k);  // alias key: PyTorch's error
      const Row row = live_row(*reg, op, row_key);
      const RowVerdict verdict = row_verdict(cat, row);
      doc["row_key"] = cat.name(row_key);
      doc["tag"] = tag_text(row.rule);
      if (row.valid()) {
        doc["kernel"] = row.debug();
        doc["language"] = language_id(row_language(row));
      }
      doc["verdict"] = verdict_word(verdict);
      const std::string row_words = "the " + cat.name(row_key) + " row of " + op.name;
      if (computed) {
        answer = row.valid() ? "yes" : "no";
        text = row_words + (row.valid() ? " holds a kernel [" + std::string(tag_text(row.rule)) + "]" : " is missing");
      } else {
        answer = verdict == RowVerdict::Works ? "yes" : verdict == RowVerdict::Fails ? "no" : "unknown";
        text = row_words + (verdict == RowVerdict::Works     ? " runs a C++ kernel that returns"
                            : !row.valid()                   ? " is missing: a call raises"
                            : verdict == RowVerdict::Fails   ? " holds a kernel that raises when called"
                                                             : " is a python kernel (" + short_debug(row.debug()) +
                                                                   "): whether it works is unknown; Python meta "
                                                                   "kernels raise for data-dependent operators");
      }
      if (row_key != k) text += " (" + cat.name(k) + " answers for its " + cat.name(row_key) + " instance, as in PyTorch)";
      if (computed && verdict == RowVerdict::Fails && row.valid()) text += "; note: that kernel raises when called";
      else if (computed && verdict == RowVerdict::Unknown) text += "; note: a python kernel, it may raise (--works)";
      else if (row.valid() && row.fallthrough()) text += "; note: a fallthrough, a call skips the key";
    }
    // On a build without kernels for K's backend (CUDA on the CPU-only built-ins) the
    // answer is this build's, not a CUDA build's: say so.
    if (const std::string note = not_compiled_note(cat, build_backends(*reg), k); !note.empty()) {
      text += "; note: " + note;
      doc["build_note"] = note;
    }
    if (const std::string note = predicted_registry_note(*reg); !note.empty()) {
      text += "; note: " + note;
      doc["registry_note"] = note;
    }
    doc["answer"] = answer;
    doc["text"] = text;
    if (!quiet) write_stdout(json || format == "json" ? doc.dump(2) + "\n" : answer + ": " + text + "\n");
    return answer == "yes" ? 0 : 1;
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
      "Exit status: 0 yes, 1 no or unknown, 2 error. The answer is printed too (-q: only the exit\n"
      "status; --json / --format json: {operator, key, question, answer, text, ...}).\n"
      "\nExamples:\n"
      "  dispatchctl has-kernel aten::add.Tensor --key CPU\n"
      "  dispatchctl has-kernel aten::linear --key Meta --computed\n"
      "  dispatchctl has-kernel aten::nonzero --key Meta --works --json    # unknown: a python kernel\n"
      "  dispatchctl has-kernel aten::add.Tensor --key CompositeExplicitAutograd -m builtin:1.13.1\n"
      "  dispatchctl has-kernel -q my::op --key Meta -m my_backend.json && echo registered");
  sub->add_option("OP", command->op_name, "Operator, full name (aten::add.Tensor)")->required();
  sub->add_option("-k,--key", command->key, "Dispatch key")->required();
  sub->add_flag("--computed", command->computed, "Ask about the computed row instead of a registration");
  sub->add_flag("--works", command->works, "Does K's row run a kernel that returns (yes/no/unknown)");
  sub->add_flag("-q,--quiet", command->quiet, "Print nothing; answer with the exit status only");
  sub->add_flag("--json", command->json, "JSON output (same as --format json)");
  add_format_option(sub, command->format, {"text", "json"});
  add_registry_options(sub, command->registry);
  sub->callback([command, &exit_code] { exit_code = command->run(); });
}

}  // namespace dispatchctl::cli
