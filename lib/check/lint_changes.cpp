// `check --base`: what a change costs users that no single registry shows —
// comparing each operator in scope before and after the change.
//   operator-removed: an operator the base defines is gone (an error: every
//     call raises).
//   dense-kernel-lost: no dense backend (CPU, CUDA) keeps a kernel where one
//     had one (an error; when the math kernel is what went, math-kernel-lost
//     says it, as an error; dense_kernels.h).
//   math-kernel-lost: the operator had a CompositeImplicitAutograd kernel and
//     lost it (a `dispatch:` table on an operator that had none replaces the
//     implicit CompositeImplicitAutograd entry), leaving keys without a kernel.
//   backward-not-implemented: its Autograd kernel became PyTorch's boxed
//     autograd-not-implemented kernel while backward worked before: a
//     derivatives.yaml formula is gone, or the operator left
//     CompositeImplicitAutograd (whose decomposition autograd differentiated
//     through) without getting one; or a new operator with a differentiable
//     output comes without one (torchgen gives it that kernel too).
#include "check/lint_changes.h"

#include <algorithm>
#include <fstream>
#include <map>

#include "keys/key_summary.h"
#include "query/predicates.h"
#include "registry/schema_parser.h"
#include "registry/schema_text.h"
#include "table/table.h"
#include "util/join.h"
#include "registry/operator_name.h"
#include "torchgen/schema.h"

namespace dispatchctl {
namespace {

Finding at(std::string_view rule, const Operator& op, const Kernel* k, std::string message) {
  Finding f;
  f.rule = std::string(rule);
  f.op = op.name;
  const Origin& origin = k ? k->origin : op.schema->origin;
  f.location = {std::string(origin.file()), origin.pointer(), origin.line(), 0};
  f.message = std::move(message);
  return f;
}

// Where a removed operator is located in the changed sources, like every
// other finding: at the operator of its name left after the change (an
// autogen'd flip.out lost with flip's `autogen:`), else at the operator now in
// its place (the first one after it in its base file that is still there), else
// at the last one before it that is still there (an entry removed from the end
// of the file: a fork's own operator, the eleventh corpus' fast_gelu); itself,
// in the base, when nothing of its file is left.
const Operator* removed_at(const Operator& old, const Registry& before, const Registry& after) {
  const std::string& name = old.name;
  if (const Operator* same = after.find(name.substr(0, name.find('.'))); same && same->schema) return same;
  const Origin& was = old.schema->origin;
  const Operator *next = nullptr, *previous = nullptr;
  int next_line = 0, previous_line = 0;
  for (const Operator* op : before.sorted_operators()) {
    if (!op->schema || op == &old || op->schema->origin.file() != was.file()) continue;
    const Operator* now = after.find(op->name);
    if (!now || !now->schema) continue;
    const int line = op->schema->origin.line();
    if (line >= was.line() && (!next || line < next_line)) next = now, next_line = line;
    if (line < was.line() && (!previous || line > previous_line)) previous = now, previous_line = line;
  }
  return next ? next : previous ? previous : &old;
}

bool math_row(Rule r) { return r == Rule::CompositeImplicitAutograd; }

bool not_implemented(const Kernel* k) { return k && is_autograd_not_implemented(*k); }

// The `- func:` text of the native_functions.yaml line the operator comes
// from, exactly as written ("" when it does not come from one).
std::string yaml_func_text(const Operator& op) {
  if (!op.schema || op.schema->origin.line() <= 0) return {};
  std::ifstream in{std::string(op.schema->origin.file())};
  std::string line;
  for (int n = 0; n < op.schema->origin.line() && std::getline(in, line);) ++n;
  constexpr std::string_view prefix = "- func: ";
  if (!in || !line.starts_with(prefix)) return {};
  line.erase(0, prefix.size());
  line.erase(line.find_last_not_of(" \t\r") + 1);
  return line;
}

// What a missing formula is written as: the operator's derivatives.yaml `- name:` line,
// which tools/autograd matches against native_functions.yaml's text exactly
// (defaults as written there: `float margin=1.0, int reduction=Mean`, not the dispatcher's `1., 1`).
std::string formula_entry(const Operator& op) {
  std::string schema = yaml_func_text(op);
  if (schema.empty()) schema = op.schema ? std::string(op.schema->text) : std::string(op.name);
  if (const size_t ns = schema.find("::"); ns != std::string::npos && ns < schema.find('(')) schema.erase(0, ns + 2);
  return "`- name: " + schema + "`";
}

// Backward through an operator can only be asked for when an input can
// require grad: a factory operator (no Tensor input besides out=) has none, so
// its autograd-not-implemented kernel never raises.
bool has_tensor_input(const Operator& op) {
  const std::optional<FunctionSchema> schema = operator_schema(op);
  return schema && std::any_of(schema->arguments.begin(), schema->arguments.end(), [](const SchemaArgument& a) {
           return a.type.tensor_like() && !(a.kwarg_only && a.is_write());
         });
}

// An out= operator torchgen generates from another entry's `autogen:`: its
// CompositeExplicitAutograd kernel is the generated one that calls the
// functional (the registry's record of what generated kernels call).
bool generated_out(const Registry& registry, const Operator& op) {
  return std::any_of(op.registrations.begin(), op.registrations.end(), [&](const Kernel& k) {
    const GeneratedCall* call = registry.generated_call(k);
    return call && call->kind == GeneratedCallKind::AutogenOut;
  });
}

// PyTorch's autograd-not-implemented kernel names the operator without its
// overload: "derivative for aten::_add_relu is not implemented" (checked with
// the live 2.14.1 on _add_relu.Tensor).
std::string raised_for(const Operator& op) {
  const std::string name(op.name);
  return "\"derivative for " + name.substr(0, name.find('.')) + " is not implemented\"";
}

std::string gradients_after(const Operator& op, const Kernel* autograd_kernel) {
  if (autograd_kernel && !not_implemented(autograd_kernel))
    return "gradients survive: its derivatives.yaml formula's Autograd kernel differentiates the keys that keep a kernel";
  return "gradients are lost: derivatives.yaml has no formula for it, so backward raises " + raised_for(op) +
         " where a kernel remains";
}

// Which derivatives.yaml entry serves an operator, as gen_variable_type
// matches them: torchgen's FunctionSchema.signature() (what a functional, its
// in-place and out= variants share: the base name without `_` or
// `_functional`, no out= or TensorOptions arguments, mutable inputs as
// returns), and for a view's NAME_copy the view's (load_derivatives'
// add_view_copy_derivatives gives it the view's formula: one formula serves
// the view, its _copy and a declared out= of the _copy). "" without a schema.
std::vector<std::string> formula_groups(const Registry& after, const std::vector<Finding>& findings, size_t first) {
  std::vector<std::optional<FunctionSchema>> schemas;
  std::map<std::string, std::string> views;  // view_signature -> the view's signature, for views with a finding
  for (size_t i = first; i < findings.size(); ++i) {
    const Operator* op = after.find(findings[i].op);
    schemas.push_back(op ? operator_schema(*op) : std::nullopt);
    const auto& s = schemas.back();
    // torchgen's ViewSchemaKind.aliasing: a returned alias that is not written.
    if (s && !torchgen::base_name(*s).inplace &&
        std::any_of(s->returns.begin(), s->returns.end(), [](const auto& r) { return !r.alias.empty() && !r.is_write(); }))
      views.emplace(torchgen::torchgen_text(torchgen::view_signature(*s)),
                    torchgen::torchgen_text(torchgen::signature(*s, true)));
  }
  std::vector<std::string> groups;
  for (const auto& s : schemas) {
    if (!s) {
      groups.emplace_back();
      continue;
    }
    const auto view = torchgen::base_name(*s).base.ends_with("_copy")
                          ? views.find(torchgen::torchgen_text(torchgen::view_signature(*s)))
                          : views.end();
    groups.push_back(view != views.end() ? view->second : torchgen::torchgen_text(torchgen::signature(*s, true)));
  }
  return groups;
}

// One cause, one finding: backward-not-implemented findings of the operators
// one formula serves merge into the first's (the functional's or the view's:
// operators are in name order, and its name is the others' prefix), naming the others.
void merge_variants(std::vector<Finding>& findings, size_t first, const std::vector<std::string>& signatures) {
  std::map<std::string, size_t> by_signature;
  std::vector<Finding> kept(findings.begin(), findings.begin() + static_cast<std::ptrdiff_t>(first));
  for (size_t i = first; i < findings.size(); ++i) {
    Finding& f = findings[i];
    const std::string& sig = signatures[i - first];
    if (f.rule == "backward-not-implemented" && f.kind.empty() && !sig.empty()) {
      auto [it, fresh] = by_signature.emplace(sig, kept.size());
      if (!fresh) {
        kept[it->second].covers.push_back(f.op);
        continue;
      }
    }
    kept.push_back(std::move(f));
  }
  for (Finding& f : kept)
    if (!f.covers.empty())
      f.message += " (the same holds for " + join(f.covers) + ": one formula serves them all)";
  findings = std::move(kept);
}

}  // namespace

void lint_changes(const Registry& before, const Registry& after, const std::function<bool(const Operator&)>& in_scope,
                  const std::optional<CudaKernelsByYaml>& cuda_by_yaml, std::vector<Finding>& out) {
  const size_t first = out.size();
  const Catalogue& cat = after.catalogue();
  const Key cia = *cat.alias(Alias::CompositeImplicitAutograd);
  const Key before_cia = *before.catalogue().alias(Alias::CompositeImplicitAutograd);
  const auto autograd = cat.alias(Alias::Autograd);
  const auto before_autograd = before.catalogue().alias(Alias::Autograd);
  const DenseKernels dense_kernels(before, after, cuda_by_yaml);
  // One finding per family removed: the variants of one torchgen signature
  // (sspaddmm and sspaddmm.out) go together, named at the first (name order
  // puts the functional before its .out and NAME_).
  std::map<std::string, size_t> removed_families;
  for (const Operator* old : before.sorted_operators()) {
    const Operator* now = after.find(old->name);
    if (!old->schema || (now && now->schema)) continue;
    const std::optional<FunctionSchema> schema = operator_schema(*old);
    if (schema) {
      const auto [family, fresh] =
          removed_families.emplace(torchgen::torchgen_text(torchgen::signature(*schema, true)), out.size());
      if (!fresh) {
        out[family->second].covers.push_back(old->name);
        continue;
      }
    }
    Finding f = at("operator-removed", *(removed_at(*old, before, after)), nullptr, "");
    f.op = old->name;
    f.severity = Severity::Error;
    out.push_back(std::move(f));
  }
  for (size_t i = first; i < out.size(); ++i) {
    Finding& f = out[i];
    const std::string gone = f.covers.empty() ? f.op + " is gone" : f.op + " is gone, and " + join(f.covers) +
                                                                         " with it (its variants)";
    f.message = gone + ": every call raises (\"No such operator " + f.op + "\"), and so does every caller: " +
                (f.covers.empty() ? "its" : "their") +
                " composites, derivatives.yaml formulas and Python bindings; keep the entry (or deprecate it first, "
                "as PyTorch does)";
  }
  for (const Operator* op : after.sorted_operators()) {
    if (!in_scope(*op)) continue;
    const Operator* old = before.find(op->name);
    const Kernel* now = autograd ? op->active(*autograd) : nullptr;
    // A move to CompositeExplicitAutograd keeps a kernel on every key the
    // decomposition served; what it does not cover (NestedTensor) the
    // decomposition failed on before too: no cost to report.
    const auto cea = cat.alias(Alias::CompositeExplicitAutograd);
    if (old && old->has(before_cia) && !op->has(cia) && !(cea && op->has(*cea))) {
      std::vector<Key> lost;
      for (Key k : cat.runtime_keys()) {
        if (k == k_undefined || !cat.included_in_alias(k, cia)) continue;
        // By name: a base of another release numbers its keys otherwise.
        const auto was = before.catalogue().find(cat.name(k));
        if (was && math_row(compute_row(before, *old, *was).rule) && lost_row(compute_row(after, *op, k).rule))
          lost.push_back(k);
      }
      const std::vector<Key> dense = dense_kernels.lost(*old, *op);
      if (!lost.empty()) {
        Finding f = at("math-kernel-lost", *op, op->registrations.empty() ? nullptr : &op->registrations.front(),
                       op->name + " lost its CompositeImplicitAutograd (math) kernel: " +
                           (dense.empty() ? "" : "calls on " + cat.name_list(dense) + " raise now" + dense_kernels.unjudged_note() + "; ") +
                           std::to_string(lost.size()) + (lost.size() == 1 ? " key has" : " keys have") +
                           " no kernel now and calls there raise (" + summarize_keys(cat, lost) + "); " +
                           gradients_after(*op, now) +
                           "; a dispatch: table replaces the implicit CompositeImplicitAutograd entry: delete it "
                           "again (handle those keys inside the composite), or give every key a kernel "
                           "(`CompositeExplicitAutograd: KERNEL`) and the operator a derivatives.yaml formula");
        if (!dense.empty()) f.severity = Severity::Error;
        out.push_back(std::move(f));
      }
    } else if (old) {
      const std::vector<Key> dense = dense_kernels.lost(*old, *op);
      if (!dense.empty()) {
        Finding f = at("dense-kernel-lost", *op, op->registrations.empty() ? nullptr : &op->registrations.front(),
                       op->name + " has no kernel for " + cat.name_list(dense) + " any more" + dense_kernels.unjudged_note() +
                           ": calls there raise \"Could not run '" + op->name + "' with arguments from the '" +
                           cat.name(dense.front()) + "' backend\"; give it those kernels back (a dispatch: entry, or "
                           "CompositeExplicitAutograd for one kernel everywhere)");
        f.severity = Severity::Error;
        out.push_back(std::move(f));
      }
    }
    if (!not_implemented(now)) continue;
    if (!old) {
      if (!has_tensor_input(*op)) continue;
      if (generated_out(after, *op)) {
        // Its own cause, and no formula removes it: PyTorch's practice, a note.
        Finding f = at("backward-not-implemented", *op, now,
                       "backward through " + op->name + " will raise " + raised_for(*op) +
                           ": torchgen generates it (autogen:), and gen_variable_type gives a generated out= variant "
                           "no formula (match_differentiability_info), as for the ~490 out= variants PyTorch's own "
                           "native_functions.yaml generates; declare it with a kernel if its backward matters");
        f.severity = Severity::Note;
        f.kind = "generated-out";
        out.push_back(std::move(f));
        continue;
      }
      out.push_back(at("backward-not-implemented", *op, now,
                       "backward through " + op->name + " will raise " + raised_for(*op) + ": it is a new operator and derivatives.yaml has no formula for it "
                           "(torchgen gives it PyTorch's autograd-not-implemented kernel); add " + formula_entry(*op) +
                           " to derivatives.yaml with a formula per differentiable input, or with "
                           "`output_differentiability: [False]` if its outputs are not differentiable"));
      continue;
    }
    // Backward worked before through a formula's Autograd kernel, or through
    // the math kernel's decomposition (a CompositeImplicitAutograd operator has
    // no Autograd kernel of its own).
    const Kernel* was = before_autograd ? old->active(*before_autograd) : nullptr;
    const bool left_cia = old->has(before_cia) && !op->has(cia);
    // A backend kernel beside the CompositeImplicitAutograd one makes the
    // operator abstract: torchgen gives it an Autograd kernel, which wins over
    // the decomposition (cia-beside-cpu in the sixth corpus).
    if (was ? not_implemented(was) : !old->has(before_cia)) continue;
    const std::string why =
        was ? "derivatives.yaml has no formula for it any more"
        : left_cia ? "it left CompositeImplicitAutograd, whose decomposition autograd differentiated through, and "
                     "derivatives.yaml has no formula for it"
                   : "a backend kernel beside its CompositeImplicitAutograd one gives it an Autograd kernel of its "
                     "own, which wins over the decomposition autograd differentiated through, and derivatives.yaml "
                     "has no formula for it";
    out.push_back(at("backward-not-implemented", *op, now,
                     "backward through " + op->name + " will raise " + raised_for(*op) + ": " + why + " (its Autograd kernel is now PyTorch's "
                         "autograd-not-implemented kernel); add " + formula_entry(*op) +
                         " to derivatives.yaml with a formula per differentiable input" +
                         (left_cia ? std::string(", or delete its dispatch table again (it is CompositeImplicitAutograd "
                                                 "then, and autograd differentiates its decomposition)")
                                   : std::string(", or mark the outputs non-differentiable"))));
  }
  merge_variants(out, first, formula_groups(after, out, first));
}

void lint_formula_changes(const std::map<std::string, FormulaFact>& before,
                          const std::map<std::string, FormulaFact>& after, std::vector<Finding>& out) {
  for (const auto& [name, now] : after) {
    const auto was = before.find(name);
    // A new entry with a not_implemented(…) backward formula gives the operator
    // a backward node that raises, as a formula replaced by one does
    // (formula-not-implemented-with-formula in the eighth corpus; one input's
    // formula of several, hypot-other-not-implemented-quoted in the tenth).
    if (was == before.end() && !now.backward_raises) continue;
    const bool added = was == before.end();
    Finding f;
    f.op = name;
    f.location = {now.file, "", now.line, 0};
    f.covers.assign(now.ops.begin() + 1, now.ops.end());
    const std::string bare(bare_operator_name(name));
    if (now.backward_raises && (added || !was->second.backward_raises)) {
      f.rule = "backward-not-implemented";
      f.kind = "formula-not-implemented";
      f.message = "backward through " + name + " will raise \"the derivative for '" + bare +
                  "' is not implemented.\": its derivatives.yaml formula for " + now.raising_inputs + " is " +
                  (added ? "" : "now ") + "not_implemented(…)" +
                  (f.covers.empty() ? std::string() : " (and so is " + join(f.covers) + "'s, one formula serves them)") +
                  "; keep the formula, or say in the PR why backward may raise";
      out.push_back(f);
    } else if (was->second.forward && !now.forward && !now.inplace_ops.empty()) {
      // gen_variable_type: without a forward formula the functional tries a
      // JIT decomposition for jvp; the in-place variants raise.
      f.op = now.inplace_ops.front();
      f.covers.assign(now.inplace_ops.begin() + 1, now.inplace_ops.end());
      f.rule = "forward-not-implemented";
      f.kind = "forward-formula-deleted";
      f.message = "forward-mode AD through " + f.op + " will raise \"Trying to use forward AD with " +
                  std::string(bare_operator_name(f.op)) +
                  " that does not support it because it has not been implemented yet\": its derivatives.yaml entry "
                  "lost its forward formula (`result: …`)" +
                  (f.covers.empty() ? std::string() : " (for " + join(f.covers) + " too)") +
                  ", and " + name + " falls back to a JIT decomposition for jvp, which raises where none is registered" +
                  "; keep it (`result: auto_element_wise` for an element-wise operator)";
      out.push_back(f);
    }
  }
}

}  // namespace dispatchctl
