// `check --base`: what a change costs users that no single registry shows —
// comparing each operator in scope before and after the change.
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
#include <variant>

#include "keys/key_summary.h"
#include "registry/schema_parser.h"
#include "table/table.h"

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

bool math_row(Rule r) { return r == Rule::CompositeImplicitAutograd; }
bool lost_row(Rule r) {
  return r == Rule::Missing || r == Rule::BackendFallback || r == Rule::AmbiguousAutogradOther;
}

// The autograd-not-implemented kernel as PyTorch registers it: boxed only, no signature.
bool not_implemented(const Kernel* k) { return k && !k->fallthrough && !k->signature && !k->unboxed; }

// What a missing formula is written as: the operator's derivatives.yaml `- name:` line.
std::string formula_entry(const Operator& op) {
  std::string schema = op.schema ? std::string(op.schema->text) : std::string(op.name);
  if (const size_t ns = schema.find("::"); ns != std::string::npos && ns < schema.find('(')) schema.erase(0, ns + 2);
  return "`- name: " + schema + "`";
}

// Backward through an operator can only be asked for when an input can
// require grad: a factory operator (no Tensor input besides out=) has none, so
// its autograd-not-implemented kernel never raises.
bool has_tensor_input(const Operator& op) {
  if (!op.schema) return false;
  const auto parsed = parse_function_schema(op.schema->text, {true});
  const auto* schema = std::get_if<FunctionSchema>(&parsed);
  return schema && std::any_of(schema->arguments.begin(), schema->arguments.end(), [](const SchemaArgument& a) {
           return a.type.tensor_like() && !(a.kwarg_only && a.is_write());
         });
}

std::string gradients_after(const Operator& op, const Kernel* autograd_kernel) {
  if (autograd_kernel && !not_implemented(autograd_kernel))
    return "gradients survive: its derivatives.yaml formula's Autograd kernel differentiates the keys that keep a kernel";
  return "gradients are lost: derivatives.yaml has no formula for it, so backward raises \"derivative for " +
         std::string(op.name) + " is not implemented\" where a kernel remains";
}

}  // namespace

void lint_changes(const Registry& before, const Registry& after, const std::function<bool(const Operator&)>& in_scope,
                  std::vector<Finding>& out) {
  const Catalogue& cat = after.catalogue();
  const Key cia = *cat.alias(Alias::CompositeImplicitAutograd);
  const auto autograd = cat.alias(Alias::Autograd);
  const auto before_autograd = before.catalogue().alias(Alias::Autograd);
  for (const Operator* op : after.sorted_operators()) {
    if (!in_scope(*op)) continue;
    const Operator* old = before.find(op->name);
    const Kernel* now = autograd ? op->active(*autograd) : nullptr;
    if (old && old->has(cia) && !op->has(cia)) {
      std::vector<Key> lost;
      for (Key k : cat.runtime_keys()) {
        if (k == k_undefined || !cat.included_in_alias(k, cia)) continue;
        if (math_row(compute_row(before, *old, k).rule) && lost_row(compute_row(after, *op, k).rule)) lost.push_back(k);
      }
      if (!lost.empty())
        out.push_back(at("math-kernel-lost", *op, op->registrations.empty() ? nullptr : &op->registrations.front(),
                         op->name + " lost its CompositeImplicitAutograd (math) kernel: " + std::to_string(lost.size()) +
                             (lost.size() == 1 ? " key has" : " keys have") + " no kernel now and calls there raise (" +
                             summarize_keys(cat, lost) + "); " + gradients_after(*op, now) +
                             "; a dispatch: table replaces the implicit CompositeImplicitAutograd entry, so list "
                             "`CompositeImplicitAutograd: KERNEL` in it (or give those keys kernels)"));
    }
    if (!not_implemented(now)) continue;
    if (!old) {
      if (!has_tensor_input(*op)) continue;
      out.push_back(at("backward-not-implemented", *op, now,
                       "backward through " + op->name + " will raise \"derivative for " + op->name +
                           " is not implemented\": it is a new operator and derivatives.yaml has no formula for it "
                           "(torchgen gives it PyTorch's autograd-not-implemented kernel); add " + formula_entry(*op) +
                           " to derivatives.yaml with a formula per differentiable input, or with "
                           "`output_differentiability: [False]` if its outputs are not differentiable"));
      continue;
    }
    // Backward worked before through a formula's Autograd kernel, or through
    // the math kernel's decomposition (a CompositeImplicitAutograd operator has
    // no Autograd kernel of its own).
    const Kernel* was = before_autograd ? old->active(*before_autograd) : nullptr;
    const bool left_cia = old->has(cia) && !op->has(cia);
    if (was ? not_implemented(was) : !left_cia) continue;
    const std::string why =
        was ? "derivatives.yaml has no formula for it any more"
            : "it left CompositeImplicitAutograd, whose decomposition autograd differentiated through, and "
              "derivatives.yaml has no formula for it";
    out.push_back(at("backward-not-implemented", *op, now,
                     "backward through " + op->name + " will raise \"derivative for " + op->name +
                         " is not implemented\": " + why + " (its Autograd kernel is now PyTorch's "
                         "autograd-not-implemented kernel); add " + formula_entry(*op) +
                         " to derivatives.yaml with a formula per differentiable input" +
                         (left_cia ? std::string(", or keep `CompositeImplicitAutograd: KERNEL` in its dispatch table")
                                   : std::string(", or mark the outputs non-differentiable"))));
  }
}

}  // namespace dispatchctl
