// `check --base`: what a change costs users that no single registry shows —
// comparing each operator in scope before and after the change.
//   math-kernel-lost: the operator had a CompositeImplicitAutograd kernel and
//     lost it (a `dispatch:` table on an operator that had none replaces the
//     implicit CompositeImplicitAutograd entry), leaving keys without a kernel.
//   backward-not-implemented: its Autograd kernel became PyTorch's boxed
//     autograd-not-implemented kernel (no derivatives.yaml formula any more, or
//     no CompositeImplicitAutograd kernel to differentiate through any more).
#include "check/lint_changes.h"

#include "keys/key_summary.h"
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

}  // namespace

void lint_changes(const Registry& before, const Registry& after, const std::function<bool(const Operator&)>& in_scope,
                  std::vector<Finding>& out) {
  const Catalogue& cat = after.catalogue();
  const Key cia = *cat.alias(Alias::CompositeImplicitAutograd);
  const auto autograd = cat.alias(Alias::Autograd);
  for (const Operator* op : after.sorted_operators()) {
    if (!in_scope(*op)) continue;
    const Operator* old = before.find(op->name);
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
                             summarize_keys(cat, lost) + "); a dispatch: table replaces the implicit "
                             "CompositeImplicitAutograd entry, so list `CompositeImplicitAutograd: KERNEL` in it "
                             "(or give those keys kernels)"));
    }
    if (!autograd) continue;
    const Kernel* now = op->active(*autograd);
    const Kernel* was = old ? old->active(*autograd) : nullptr;
    // Backward worked before through a formula's Autograd kernel, or through
    // the CompositeImplicitAutograd kernel's decomposition (no Autograd kernel
    // of its own: autograd records the ops it calls).
    const bool differentiated_through_math = old && !was && old->has(cia);
    if (not_implemented(now) && old && ((was && !not_implemented(was)) || differentiated_through_math))
      out.push_back(at("backward-not-implemented", *op, now,
                       "backward through " + op->name + " will raise \"derivative for " + op->name +
                           " is not implemented\": " +
                           (differentiated_through_math
                                ? "it lost its CompositeImplicitAutograd kernel, which autograd differentiated "
                                  "through, and derivatives.yaml has no formula for it"
                                : "derivatives.yaml has no formula for it any more") +
                           " (its Autograd kernel is now PyTorch's autograd-not-implemented kernel); add its `- name:` "
                           "entry with a formula per differentiable input, or mark the outputs non-differentiable"));
  }
}

}  // namespace dispatchctl
