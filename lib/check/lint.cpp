#include "check/lint.h"
#include "builtin/builtin.h"
#include "util/suggest.h"

#include <algorithm>

#include "keys/key_summary.h"
#include "table/outcome.h"
#include "table/table.h"

namespace dispatchctl {
namespace {

Location location_of(const Origin& origin) { return {std::string(origin.file()), origin.pointer(), origin.line(), 0}; }

Finding make(std::string_view rule, const Operator& op, const Origin& origin, std::string message) {
  Finding f;
  f.rule = std::string(rule);
  f.location = location_of(origin);
  f.op = op.name;
  f.message = std::move(message);
  return f;
}

// The registration a finding about the whole operator points at: its
// schema, else its first kernel.
const Origin& operator_origin(const Operator& op) {
  if (op.schema) return op.schema->origin;
  return op.registrations.front().origin;
}

// Where the user's files touch an operator: its schema when they define it,
// else their first registration. A finding about aten::add then points at
// npu.json:5, not into the built-in registry (builtin:1.13.1:22349).
const Origin& user_origin(const Operator& op) {
  auto built_in = [](const Origin& o) { return o.file().rfind(k_builtin_prefix, 0) == 0; };
  if (op.schema && !built_in(op.schema->origin)) return op.schema->origin;
  for (const auto& kernel : op.registrations)
    if (!built_in(kernel.origin)) return kernel.origin;
  return operator_origin(op);
}

// Why a row that holds a kernel fails when called (table/outcome.h, as
// has-kernel --works says it): what the kernel calls, and where the call raises.
std::string failing_call(const Catalogue& cat, OutcomeFollower& follower, const Operator& op, const Row& row,
                         const RowOutcome& followed) {
  const std::string kernel = std::string(tag_text(row.rule)) + " via " + cat.name(row.provider);
  if (!followed.needs.op) {
    if (followed.raises.empty()) return "its kernel (" + kernel + ") raises when called";
    return "its kernel (" + kernel + ") always raises (recorded from the release): " + std::string(followed.raises_type) +
           ": " + std::string(followed.raises.substr(0, followed.raises.find('\n')));
  }
  std::string out = followed.needs.via == DependencyVia::Below
                        ? "its autograd kernel (" + kernel + ") passes the call on to " + cat.name(followed.needs.row.key)
                        : "its kernel (" + kernel + ") calls " + followed.needs.op->name;
  const OutcomeFollower::Raising at = follower.where_raises(op, row, followed);
  out += ", and a call raises at " + at.op->name + " (" + cat.name(at.row.key) + ")";
  if (const std::string error = OutcomeFollower::raised_error(cat, at).first_line; !error.empty()) out += ": " + error;
  return out;
}

bool is_silent_override_key(const Catalogue& cat, Key k) {
  const auto& silent = cat.spec().override_warning_silent_keys;
  return std::find(silent.begin(), silent.end(), cat.name(k)) != silent.end();
}

}  // namespace

void lint_dangling_impls(const Registry& registry, const LintScope& scope, std::vector<Finding>& out) {
  const Catalogue& cat = registry.catalogue();
  // A typo'd name ('aten::convoluton_overrideable') is the likeliest cause:
  // suggest the defined operator it is closest to (issue 24 item 9).
  std::vector<std::string_view> defined;
  for (const auto& op : registry.operators())
    if (op.schema) defined.push_back(op.name);
  for (const auto& op : registry.operators()) {
    if (op.schema || op.registrations.empty() || !scope.contains(op)) continue;
    std::vector<Key> keys;
    for (const auto& kk : op.by_key()) keys.push_back(kk.key);
    const std::optional<std::string> typo_of = closest_match(op.name, defined);
    Finding f = make("dangling-impl", op, op.registrations.front().origin,
                     op.name + " has kernels (" + cat.name_list(keys) +
                         ") but no manifest defines its schema: a dangling impl that cannot be called; " +
                         (typo_of ? "did you mean " + *typo_of + "? Else add" : std::string("add")) +
                         " \"schema\" or load the manifest that defines it");
    // PyTorch defines every aten:: operator itself: a kernel for one it does
    // not define is a misspelling whose kernel is silently lost.
    // Only a user's own kernels, and only over a registry that defines PyTorch's
    // operators (not a manifest loaded bare, not PyTorch's own dangling impls).
    const Operator* add = registry.find("aten::add.Tensor");
    const bool users_kernel =
        scope.kernel_by_user && std::any_of(op.registrations.begin(), op.registrations.end(),
                                            [&](const Kernel& k) { return scope.kernel_by_user(k); });
    if (op.name.starts_with("aten::") && add && add->schema && users_kernel) f.severity = Severity::Error;
    out.push_back(std::move(f));
  }
}

// §3.4: PyTorch warns when a key of an operator already has a kernel. Its
// "previous kernel" is the debug of the first registration that fixed the
// operator's C++ signature (any key; recorded before the warning, so it can
// be the new kernel itself), else "no debug info". Whether the warning is
// printed every time, once per process, or never for some keys is release
// data (ReleaseSpec::override_warning_*).
void lint_overrides(const Registry& registry, const LintScope& scope, std::vector<Finding>& out) {
  const Catalogue& cat = registry.catalogue();
  const ReleaseSpec& spec = cat.spec();
  struct Override {
    const Operator* op;
    const Kernel* kernel;
    const Kernel* overridden;
    std::string previous;
    bool previous_from_dump;
  };
  std::vector<Override> found;
  for (const auto& op : registry.operators()) {
    if (op.registrations.size() < 2 || !scope.contains(op)) continue;
    const Kernel* signature_fixer = nullptr;
    std::vector<const Kernel*> newest(cat.key_count(), nullptr);
    for (const auto& k : op.registrations) {
      // A C++ (unboxed) kernel carries a C++ signature; boxed-only ones
      // (Python kernels, fallthroughs) do not.
      if (!signature_fixer && k.unboxed && !k.fallthrough) signature_fixer = &k;
      if (newest[k.key] && !is_silent_override_key(cat, k.key))
        found.push_back({&op, &k, newest[k.key], signature_fixer ? signature_fixer->debug : "no debug info",
                         signature_fixer && !signature_fixer->origin.has_pointer()});
      newest[k.key] = &k;
    }
  }
  std::sort(found.begin(), found.end(),
            [](const Override& a, const Override& b) { return a.kernel->sequence < b.kernel->sequence; });
  bool first = true;
  for (const auto& o : found) {
    const Operator& op = *o.op;
    // Only the warning PyTorch prints is quoted: none for an override a
    // warn-once release stays silent about, and no guessed "previous kernel".
    const bool printed = !spec.override_warning_once || first;
    std::string text;
    if (printed) {
      if (spec.override_warning_once)
        text += "Warning only once for all operators,  other operators may also be overridden.\n  ";
      text += "Overriding a previously registered kernel for the same operator and the same dispatch key\n";
      text += "  operator: " + (op.schema ? op.schema->text : op.name) + "\n";
      text += "    " + (op.schema ? op.schema->debug : Text("no debug info")) + "\n";
      text += "  dispatch key: " + cat.name(o.kernel->key) + "\n";
      text += o.previous_from_dump ? "  previous kernel: (not known: a dump does not record which kernel PyTorch "
                                     "names here)\n"
                                   : "  previous kernel: " + o.previous + "\n";
      text += "       new kernel: " + o.kernel->debug;
    }
    std::string message = "the " + cat.name(o.kernel->key) + " kernel of " + op.name +
                          " overrides the one registered at " + o.overridden->origin.to_string() +
                          " (now inactive)";
    if (o.previous_from_dump && printed)
      message += "; which kernel PyTorch's warning names as 'previous kernel' is not known: a dump does "
                 "not record registration order";
    if (!printed)
      message += "; PyTorch " + std::string(spec.version) +
                 " warns only once per process, so it stays silent about this one";
    Finding f = make("kernel-override", op, o.kernel->origin, std::move(message));
    f.key = cat.name(o.kernel->key);
    f.details = std::move(text);
    out.push_back(std::move(f));
    first = false;
  }
}

void lint_ambiguity(const Registry& registry, const LintScope& scope, std::vector<Finding>& out) {
  const Catalogue& cat = registry.catalogue();
  const Key autograd_other = cat.well_known().autograd_other;
  const Key cia = *cat.alias(Alias::CompositeImplicitAutograd);
  for (const auto& op : registry.operators()) {
    if (!op.has(cia) || !scope.contains(op)) continue;
    if (compute_row(registry, op, autograd_other).rule != Rule::AmbiguousAutogradOther) continue;
    // Point at the later of the two sides: the registration that made it ambiguous.
    std::vector<Key> backends;
    const Kernel* latest = op.active(cia);
    for (const auto& kk : op.by_key()) {
      if (cat.is_alias(kk.key) || !cat.has(cat.autogradother_backends(), kk.key)) continue;
      backends.push_back(kk.key);
      const Kernel* k = op.active(kk.key);
      if (k->sequence > latest->sequence) latest = k;
    }
    // A backend's manifest is not to blame for PyTorch's own ambiguity (CIA + Vulkan on max_pool2d).
    if (scope.kernel_by_user && !scope.kernel_by_user(*op.active(cia)) &&
        std::none_of(backends.begin(), backends.end(), [&](Key k) { return scope.kernel_by_user(*op.active(k)); }))
      continue;
    Finding f = make("autogradother-ambiguity", op, latest->origin,
                     op.name + " has a CompositeImplicitAutograd kernel and kernels for " +
                         cat.name_list(backends) +
                         ", backends that share AutogradOther: its row is 'ambiguous "
                         "autogradother' and a call that reaches it raises; register an Autograd "
                         "kernel for them or drop one side");
    f.key = "AutogradOther";
    out.push_back(std::move(f));
  }
}

void lint_cia_with_backend(const Registry& registry, const LintScope& scope, std::vector<Finding>& out) {
  const Catalogue& cat = registry.catalogue();
  const Key cia = *cat.alias(Alias::CompositeImplicitAutograd);
  const auto cea = cat.alias(Alias::CompositeExplicitAutograd);
  const auto ceanf = cat.alias(Alias::CompositeExplicitAutogradNonFunctional);
  const Key nested = cat.well_known().nested_tensor;
  for (const auto& op : registry.operators()) {
    if (!op.has(cia) || !scope.contains(op)) continue;
    std::vector<Key> others;
    const Kernel* latest = op.active(cia);
    for (const auto& kk : op.by_key()) {
      const bool backend = (!cat.is_alias(kk.key) && (cat.is_backend_dispatch_key(kk.key) ||
                                                     cat.functionality_of(kk.key) == nested)) ||
                           (cea && kk.key == *cea) || (ceanf && kk.key == *ceanf);
      if (!backend) continue;
      others.push_back(kk.key);
      const Kernel* k = op.active(kk.key);
      if (k->sequence > latest->sequence) latest = k;
    }
    if (others.empty()) continue;
    if (scope.kernel_by_user && !scope.kernel_by_user(*op.active(cia)) &&
        std::none_of(others.begin(), others.end(), [&](Key k) { return scope.kernel_by_user(*op.active(k)); }))
      continue;  // PyTorch's own combination, untouched by the files checked
    // Keys of the CIA set that neither the operator's own kernels nor an
    // alias fill, and that the math kernel would have filled (§3.2 step 6).
    std::vector<Key> lost;
    for (Key k : cat.runtime_keys()) {
      if (k == k_undefined || !cat.included_in_alias(k, cia)) continue;
      const Rule rule = compute_row(registry, op, k).rule;
      if (rule == Rule::Autograd || rule == Rule::BackendFallback || rule == Rule::Missing ||
          rule == Rule::AmbiguousAutogradOther || rule == Rule::FuncTorchBatchedDecomposition)
        lost.push_back(k);
    }
    // PyTorch ships such operators (linear, matmul, chunk, narrow): the backend
    // kernels win on their keys and the math kernel stays everywhere else.
    // Gradients on a backend key survive when its autograd key has a kernel
    // of the operator's own (a derivatives.yaml formula's, an Autograd<B> one).
    std::vector<Key> with_grad, without_grad;
    for (Key k : others) {
      if (cat.is_alias(k) || cat.backend_of(k) == 0) continue;
      const Key autograd_key = cat.functionality_of(k) == nested ? cat.well_known().autograd_nested_tensor
                                                                 : cat.autograd_key_from_backend(cat.backend_of(k));
      const Rule r = compute_row(registry, op, autograd_key).rule;
      (r == Rule::Direct || r == Rule::Autograd ? with_grad : without_grad).push_back(k);
    }
    std::string message = op.name + " has a CompositeImplicitAutograd kernel together with " +
                          cat.name_list(others) + ": those kernels win on their keys; ";
    if (!without_grad.empty())
      message += "gradients are lost on " + cat.name_list(without_grad) +
                 " (no autograd kernel of the operator's own there; only the math kernel is differentiated "
                 "through); ";
    if (!with_grad.empty())
      message += "gradients on " + cat.name_list(with_grad) + " come from the operator's own autograd kernel; ";
    message += lost.empty() ? std::string("no key loses the math kernel yet")
                            : std::to_string(lost.size()) + (lost.size() == 1 ? " key loses" : " keys lose") +
                                  " the math kernel: " + summarize_keys(cat, lost);
    Finding f = make("cia-with-backend-kernel", op, latest->origin, std::move(message));
    out.push_back(std::move(f));
  }
}

void lint_required_keys(const Registry& registry, const LintScope& scope, std::vector<Finding>& out) {
  if (scope.required.empty() && scope.required_aliases.empty()) return;
  const Catalogue& cat = registry.catalogue();
  // A kernel counts when a call there works: what it calls is followed
  // (table/outcome.h), one follower for every row checked.
  OutcomeFollower follower(registry, computed_row_of(registry));
  for (const Operator* op : registry.sorted_operators()) {
    if (!scope.contains(*op) || (!op->schema && op->registrations.empty())) continue;
    for (Key k : required_keys_for(cat, *op, scope)) {
      const Row row = compute_row(registry, *op, k);
      std::string why, what = " has no kernel for required key ";
      if (row.rule == Rule::Missing) why = "nothing fills it: a call there raises";
      else if (row.rule == Rule::BackendFallback)
        why = "only the backend fallback (" + std::string(row.fallback->fallthrough ? "fallthrough " : "") +
              std::string(row.debug()) + ") runs there";
      else if (row.rule == Rule::AmbiguousAutogradOther) why = "the row is ambiguous: a call there raises";
      else if (const RowOutcome followed = follower.classify(*op, row);
               outcome_verdict(followed.outcome) == RowVerdict::Fails) {
        what = " has no working kernel for required key ";
        why = failing_call(cat, follower, *op, row, followed);
      } else {
        continue;
      }
      Finding f = make("required-key", *op, user_origin(*op), op->name + what + cat.name(k) + "; " + why);
      f.key = cat.name(k);
      out.push_back(std::move(f));
    }
  }
}

}  // namespace dispatchctl
