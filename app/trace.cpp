// dispatchctl trace OP: simulate one call's dispatch and redispatch chain.
#include <algorithm>

#include "builtin/builtin.h"
#include "common.h"
#include "query/predicates.h"
#include "util/log.h"
#include "util/wrap.h"
#include "load/selection.h"
#include "registry/manifest_names.h"
#include "registry/op_select.h"
#include "registry/schema_parser.h"
#include "render/trace_backward_render.h"
#include "render/trace_render.h"
#include "trace/backward.h"
#include "trace/call_list.h"
#include "trace/trace.h"
#include "util/file_io.h"
#include "util/errors.h"
#include "util/join.h"

namespace dispatchctl::cli {

namespace {

constexpr const char* k_footer = R"(Examples:
  dispatchctl trace aten::add.Tensor --tensor cpu:requires_grad --tensor cpu
  dispatchctl trace aten::add.Tensor --tensor cpu:inference --tensor cpu:inference --inference-mode
  dispatchctl trace aten::matmul --tensor cpu --tensor cpu --autocast cpu
  dispatchctl trace aten::add.Tensor --tensor meta --tensor meta --format json
  dispatchctl trace aten::add.Tensor --tensor cpu:conj --tensor cpu --tls-include Functionalize
  dispatchctl trace aten::sin --keyset CPU,Functionalize,AutogradCPU
  dispatchctl trace my::op -m NEWEST_BUILTIN -m my_backend.json --tensor privateuse1

One --tensor or --keyset per Tensor argument of the schema, in the command
line's order (a Tensor? may be left out: the ones given are the first ones; a
Tensor[] takes any number, several Tensor[] as many each; a count that fits no
reading, or more than one, is exit 2).
Presets (--tensor, in argument order; the release's real key sets): cpu, meta,
cuda, xla, mps, privateuse1, sparse_cpu, sparse_csr_cpu, quantized_cpu,
mkldnn_cpu, nested_cpu. Modifiers: :conj, :neg, :zerotensor, :inference (made
in inference mode), :requires_grad (a result that requires grad), :leaf (a leaf
that requires grad: in-place kernels refuse it); the last two change no key
set; e.g. cpu:conj.

The trace follows the LIVE table (registrations replayed in order, see
'show --live'); a hop whose live row differs from _dispatch_dump_table says so.

What each kernel does is modelled from PyTorch's conventions per kernel kind,
since kernels are opaque: backend rows (CPU, SparseCPU, NestedTensorCPU, ...) and
composite kernels return; autograd kernels redispatch with after_autograd_keyset
holding AutoDispatchBelowADInplaceOrView (autograd keys and ADInplaceOrView join
TLS excluded below them); 2.x's autograd fallback redispatches without a guard and
loses the gradients (the autograd-not-implemented fallback); ADInplaceOrView
kernels redispatch under the same guard; Autocast kernels call the operator again
under ExcludeDispatchKeyGuard(their key); Functionalize kernels and fallback call
again under AutoDispatchSkipFunctionalize; the Conjugate/Negative/ZeroTensor
fallbacks resolve their bit and redispatch with FULL_AFTER(key); Tracer and
PythonTLSSnapshot redispatch; BackendSelect picks the call's highest backend (else
CPU, dense); the Meta fallback raises, and so does the Named fallback (the operator
does not support named tensors); Python, PythonDispatcher, PreDispatch and
functorch keys hand off (the trace stops there, exit 0). A manifest kernel's
"then" (THEN_NAMES) overrides the default; each
hop prints the TLS in effect, the guard it holds and which behaviour was assumed.

Many calls in one run: --calls FILE, FILE holding one JSON
object a line, its fields named after these options, e.g.
  {"operator": "aten::add_.Tensor", "tensors": ["cpu:leaf", "cpu"], "no_grad": true}
(also keysets, autocast, inference_mode, tls_include, tls_exclude); stdout gets
one trace document a line, in order; exit 1 when any call raises.

--backward[=sum|seed] (a request's "backward": true, "sum" or "seed") also
traces what the backward does after the forward: --backward or =sum is
out.sum().backward() (out = the output, its first one for a tuple), =seed is
out.backward() on a 0-dim out. The steps in PyTorch's order, each call traced
as a nested call: the sum (a forward call), the gradient seed Python's
_make_grads makes (ones_like), SumBackward0's calls, then the operator's node's
calls, grad mode off, all as recorded from the release (docs/composite-calls.md).
The backward raises where a call every input makes certainly raises; its text
is certain unless error_caveat names code that may raise first (a complex
output, an argument the operator is not differentiable for, calls only some
inputs make, nodes not recorded: a CompositeImplicitAutograd operator's graph
is its callees' nodes). A completed backward is always assumed: AccumulateGrad
and the engine's gradient checks are not recorded. The forward's verdict is
unchanged.

Exit status: 0 the call completes (or is handed off), 1 PyTorch would raise
(the error text is printed; with --backward also when the backward certainly
raises), 2 usage or input errors.)";

// The one operator OP names (a bare name is its unnamed overload when there is one).
const Operator& traced_operator(const Registry& reg, const std::string& op,
                                std::vector<const Operator*> selected) {
  if (const Operator* exact = reg.find(canonical_op_pattern(op)); exact && selected.size() > 1) selected = {exact};
  if (selected.size() != 1)
    throw InputError("trace: '" + op + "' names " + std::to_string(selected.size()) +
                     " operators; name one overload, e.g. '" + selected.front()->name + "'");
  return *selected.front();
}

struct TraceCommand {
  RegistryOptions registry;
  std::string op;
  CallOptions call;
  std::string calls_file;
  std::string format;
  bool format_given = false;
  std::optional<BackwardForm> backward;

  int run() const {
    if (calls_file.empty() == op.empty())
      throw InputError(calls_file.empty() ? "trace: name the operator to call (trace OP --tensor ...), or give "
                                            "--calls FILE"
                                          : "trace: give either OP or --calls FILE, not both");
    return calls_file.empty() ? run_one() : run_list();
  }

  int run_one() const {
    std::vector<std::string> wanted{op};
    if (backward) wanted.emplace_back(k_backward_sum_operator);
    auto [reg, selected] = load_and_select(registry.request(), wanted);
    const Operator& target = traced_operator(*reg, op, backward ? select_operators(*reg, {op}) : selected);
    const CallSetup setup = make_call_setup(reg->catalogue(), call);
    const Trace trace = trace_call(*reg, target, setup);
    std::optional<BackwardTrace> back;
    if (backward) back = trace_backward(*reg, target, setup, trace, *backward);
    TraceRenderOptions options{format == "text" && stdout_is_color_terminal(), setup.tls_steps, output_width()};
    // As show and has-kernel: rows of a backend a CPU-only build lacks, a predicted registry.
    const std::string build_note = not_compiled_note(reg->catalogue(), build_of(*reg), keys_ran_at(trace));
    const std::string registry_note = predicted_registry_note(reg->sources);
    std::string out;
    if (format == "json") {
      auto doc = trace_json(*reg, trace, options);
      if (!build_note.empty()) doc["build_note"] = build_note;
      if (!registry_note.empty()) doc["registry_note"] = registry_note;
      if (back) doc["backward"] = backward_json(*reg, *back);
      out = doc.dump(2) + "\n";
    } else {
      for (const std::string& note : {build_note, registry_note})
        if (!note.empty()) log_note("{}", note);  // notes go to stderr
      append_trace_text(out, *reg, trace, options);
      if (back) append_backward_text(out, *reg, *back, options);
    }
    write_stdout(out);
    return trace.outcome == Trace::End::Raised || (back && backward_outcome_id(*back) == "raised") ? 1 : 0;
  }

  // --calls FILE: every call traced over one registry, one compact JSON
  // document per line (trace --format json's, in the file's order). A bad
  // line is exit 2 naming FILE:LINE before anything is written.
  int run_list() const {
    if (!call.tensors.empty() || !call.keysets.empty() || !call.autocast.empty() || call.inference_mode ||
        call.no_grad || !call.tls_include.empty() || !call.tls_exclude.empty() || backward)
      throw InputError("trace --calls: the calls' tensors and TLS come from " + calls_file +
                       " (its fields tensors, autocast, no_grad, backward ...), not from options");
    if (format_given && format != "json")
      throw InputError("trace --calls writes one JSON document per call (JSON Lines): --format " + format +
                       " cannot be used with it");
    const std::vector<CallRequest> requests = parse_call_list(read_input_file(calls_file), calls_file);
    std::vector<std::string> patterns;
    for (const CallRequest& r : requests) patterns.push_back(r.op);
    if (std::any_of(requests.begin(), requests.end(), [](const CallRequest& r) { return r.backward.has_value(); }))
      patterns.emplace_back(k_backward_sum_operator);
    if (patterns.empty()) throw InputError(calls_file + ": no calls (one JSON object per line)");
    auto [reg, loaded] = load_and_select(registry.request(), patterns);
    const std::string registry_note = predicted_registry_note(reg->sources);
    std::string out;
    bool raised = false;
    for (const CallRequest& r : requests) {
      try {
        const Operator& target = traced_operator(*reg, r.op, select_operators(*reg, {r.op}));
        const CallSetup setup = make_call_setup(reg->catalogue(), r.options);
        const Trace trace = trace_call(*reg, target, setup);
        auto doc = trace_json(*reg, trace, {false, setup.tls_steps, output_width()});
        const std::string build_note = not_compiled_note(reg->catalogue(), build_of(*reg), keys_ran_at(trace));
        if (!build_note.empty()) doc["build_note"] = build_note;
        if (!registry_note.empty()) doc["registry_note"] = registry_note;
        std::optional<BackwardTrace> back;
        if (r.backward) {
          back = trace_backward(*reg, target, setup, trace, *r.backward);
          doc["backward"] = backward_json(*reg, *back);
        }
        out += doc.dump() + "\n";
        raised = raised || trace.outcome == Trace::End::Raised || (back && backward_outcome_id(*back) == "raised");
      } catch (const InputError& e) {
        throw InputError(r.where + ": " + e.what());
      }
    }
    write_stdout(out);
    return raised ? 1 : 0;
  }

  static std::vector<Key> keys_ran_at(const Trace& trace) {
    std::vector<Key> ran_at;
    for (const Hop& hop : trace.hops) ran_at.push_back(hop.row.key);
    return ran_at;
  }
};

}  // namespace

void setup_trace(CLI::App& app, int& exit_code) {
  auto command = std::make_shared<TraceCommand>();
  CLI::App* sub = app.add_subcommand(
      "trace", "Simulate a call: its key set and every kernel that runs, in order, until it returns or raises");
  std::string footer = k_footer;
  footer.replace(footer.find("NEWEST_BUILTIN"), std::string_view("NEWEST_BUILTIN").size(), newest_builtin());
  std::vector<std::string> then_names(std::begin(k_then_names) + 1, std::end(k_then_names));
  footer.replace(footer.find("THEN_NAMES"), std::string_view("THEN_NAMES").size(), join(then_names));
  sub->footer(footer);
  sub->add_option("OP", command->op, "Operator overload, e.g. aten::add.Tensor (not with --calls)");
  add_registry_options(sub, command->registry);
  CLI::Option* tensor = sub->add_option("-t,--tensor", command->call.tensors,
                  "A tensor argument: PRESET[:MODIFIER...] (repeatable, argument order)")
      ->type_name("PRESET");
  CLI::Option* keyset = sub->add_option("--keyset", command->call.keysets,
                  "A tensor argument given by its keys, K1,K2,... (repeatable)")
      ->type_name("K1,K2");
  sub->add_option("--autocast", command->call.autocast,
                  "Inside torch.autocast(DEVICE): its Autocast key leaves TLS excluded (repeatable)")
      ->type_name("DEVICE");
  sub->add_flag("--inference-mode", command->call.inference_mode, "Inside torch.inference_mode()");
  sub->add_flag("--no-grad", command->call.no_grad,
                "Inside torch.no_grad() (GradMode only; no key set changes)");
  sub->add_option("--tls-include", command->call.tls_include, "Add K to TLS included (repeatable)")
      ->type_name("K");
  sub->add_option("--tls-exclude", command->call.tls_exclude, "Add K to TLS excluded (repeatable)")
      ->type_name("K");
  sub->add_option("--calls", command->calls_file,
                  "Trace every call of FILE (JSON Lines, one call a line: operator, tensors, keysets, autocast, "
                  "inference_mode, no_grad, tls_include, tls_exclude) over one registry: one trace document "
                  "per line (JSON Lines)")
      ->type_name("FILE");
  sub->add_option_function<std::string>(
         "--backward",
         [command](const std::string& form) {
           if (form != "sum" && form != "seed")
             throw InputError("trace --backward=" + form + ": the form is sum (out.sum().backward(), the default) or "
                              "seed (out.backward() on a 0-dim out)");
           command->backward = form == "sum" ? BackwardForm::Sum : BackwardForm::Seed;
         },
         "Also trace the backward after the forward: sum (default: out.sum().backward()) or seed "
         "(out.backward() on a 0-dim out)")
      ->type_name("FORM")
      ->expected(0, 1)
      ->default_str("sum");
  CLI::Option* format = add_format_option(sub, command->format, {"text", "json"});
  sub->callback([command, format, sub, tensor, keyset, &exit_code] {
    command->format_given = format->count() > 0;
    // --tensor and --keyset tensors are the arguments in the command line's order.
    for (const CLI::Option* given : sub->parse_order())
      if (given == tensor || given == keyset)
        command->call.order.push_back(given == tensor ? CallOptions::Form::Preset : CallOptions::Form::Keyset);
    exit_code = command->run();
  });
}

}  // namespace dispatchctl::cli
