#include "check/check.h"
#include "builtin/builtin_catalogues.h"

#include <algorithm>
#include <memory>
#include <set>

#include "check/lint.h"
#include "check/lint_changes.h"
#include "builtin/builtin.h"
#include "check/load.h"
#include "load/operator_set.h"
#include "load/source_spec.h"
#include "registry/op_select.h"
#include "registry/key_lookup.h"
#include "util/errors.h"

namespace dispatchctl {

namespace {

std::optional<Severity> severity_for(const CheckOptions& options, const std::string& rule) {
  // A file that does not load makes every other answer partial: its error
  // cannot be turned off or down.
  if (rule == "load-error") return Severity::Error;
  std::optional<Severity> s = find_rule(rule) ? find_rule(rule)->default_severity : Severity::Error;
  if (auto it = options.severities.find(rule); it != options.severities.end()) s = it->second;
  if (s == Severity::Warning && options.warnings_as_errors) s = Severity::Error;
  return s;
}

// A finding may be graver than its rule's default (a cost that leaves CPU
// without a kernel, a kernel for a misspelled aten:: operator): it keeps its
// error unless the configuration names the rule.
// A finding a rule made an error (or a note: PyTorch's own practice, a
// generated out= variant without a formula) keeps it unless the rule is configured.
void apply_severity(const CheckOptions& options, Finding& f, Severity s) {
  if (options.severities.count(f.rule) || f.severity == Severity::Warning) f.severity = s;
}

// Source order, then file, line, column, rule, operator, key: the costs of
// `--base` too (they are found after the rest).
void sort_findings(std::vector<Finding>& findings, const std::vector<std::string>& sources) {
  auto source_index = [&sources](const std::string& file) {
    return std::find(sources.begin(), sources.end(), file) - sources.begin();
  };
  std::stable_sort(findings.begin(), findings.end(), [&](const Finding& a, const Finding& b) {
    return std::make_tuple(a.rule != "load-error", source_index(a.location.file), a.location.file, a.location.line,
                           a.location.column, a.rule, a.op, a.key) <
           std::make_tuple(b.rule != "load-error", source_index(b.location.file), b.location.file, b.location.line,
                           b.location.column, b.rule, b.op, b.key);
  });
}

bool enabled(const CheckOptions& options, std::string_view rule) {
  return severity_for(options, std::string(rule)).has_value();
}

// --ops-from / --opset: the names of the set the registry holds (a note for the others).
std::shared_ptr<const std::set<std::string, std::less<>>> operator_set_scope(const Registry& registry,
                                                                             const CheckOptions& options,
                                                                             std::vector<std::string>& notes) {
  if (options.ops_from.empty() && options.opset.empty()) return nullptr;
  if (!options.ops_from.empty() && !options.opset.empty())
    throw InputError("--ops-from and --opset each name the operators to check; give one of them");
  const OperatorSet set = options.opset.empty() ? read_operator_list(options.ops_from)
                                                : builtin_operator_set(registry.torch_version(), options.opset);
  const OperatorSetInRegistry found = find_operator_set(registry, set);
  if (std::string note = absent_operators_note(registry, set, found.absent); !note.empty())
    notes.push_back(std::move(note));
  auto names = std::make_shared<std::set<std::string, std::less<>>>();
  for (const std::string& name : set.names)
    if (registry.find(name)) names->insert(name);
  return names;
}

LintScope make_scope(const Registry& registry, const std::vector<std::string>& manifest_files,
                     const CheckOptions& options, std::vector<std::string>& notes) {
  for (const auto& p : options.op_patterns)
    if (!is_glob(p)) (void)select_operators(registry, {p});  // a typo is exit 2 with did-you-mean
  const auto in_set = operator_set_scope(registry, options, notes);
  LintScope scope;
  const Catalogue& cat = registry.catalogue();
  for (const auto& name : options.require) {
    const Key k = require_key(cat, name, "--require", &builtin_releases());
    if (cat.is_alias(k)) scope.required_aliases.push_back(k);
    else scope.required.push_back(require_runtime_key(cat, name, "--require", &builtin_releases()));
  }
  const std::set<std::string> files(manifest_files.begin(), manifest_files.end());
  auto touched_by_files = [files](const Operator& op) {
    if (op.schema && files.count(op.schema->origin.file())) return true;
    return std::any_of(op.registrations.begin(), op.registrations.end(),
                       [&](const Kernel& k) { return files.count(k.origin.file()) > 0; });
  };
  scope.contains = [touched_by_files, all = files.empty() || options.include_base,
                    patterns = options.op_patterns, in_set](const Operator& op) {
    if (in_set && !in_set->count(std::string_view(op.name))) return false;
    if (!patterns.empty() &&
        std::none_of(patterns.begin(), patterns.end(),
                     [&](const std::string& p) { return op_matches(p, op.name); }))
      return false;
    return all || touched_by_files(op);
  };
  if (!files.empty() && !options.include_base)
    scope.kernel_by_user = [files](const Kernel& k) { return files.count(std::string(k.origin.file())) > 0; };
  scope.registered_by_user = [touched_by_files, include_base = options.include_base](const Operator& op) {
    return include_base || touched_by_files(op);
  };
  return scope;
}

// One cause, one finding: torchgen refuses an operator's entry, so no build
// has the registrations predicted for it. What the lints find in them (a
// CompositeImplicitAutograd kernel beside the CompositeExplicitAutograd one
// torchgen refuses to combine it with: first corpus' two-composites), or the
// registry's refusal of an operator predicted from the refused entry twice
// (logit_'s missing `autogen: logit` read as generating logit beside the
// declared one: sixth corpus' default-functional-only), is that refusal again.
void drop_refusal_cascades(std::vector<Finding>& findings) {
  std::set<std::string> ops;
  std::set<std::pair<std::string, int>> entries;
  for (const Finding& f : findings)
    if (f.rule == "torchgen-refusal") {
      if (!f.op.empty()) ops.insert(f.op);
      if (f.location.line > 0) entries.emplace(f.location.file, f.location.line);
    }
  std::erase_if(findings, [&](const Finding& f) {
    if (f.rule == "torchgen-refusal") return false;
    if (f.rule == "load-error") return entries.count({f.location.file, f.location.line}) > 0;
    return !f.op.empty() && ops.count(f.op) > 0;
  });
}

}  // namespace

CheckResult run_check(const std::vector<std::string>& sources, const CheckOptions& options) {
  if (!options.base.empty()) {
    CheckOptions plain = options;
    plain.base.clear();
    CheckResult base = run_check(options.base, plain);
    // What the change is compared against must load: a base that does not
    // (no such revision, file or JSON) would make every finding "new" or
    // "fixed" silently. Its torchgen refusals stay pre-existing findings.
    for (const Finding& f : base.findings)
      if (f.rule == "load-error")
        throw InputError("--base " + f.location.file +
                         (f.location.line > 0 ? ":" + std::to_string(f.location.line) : std::string()) + ": " +
                         f.message);
    CheckResult result = run_check(sources, plain);
    // A change is compared with its own release: across releases every
    // operator PyTorch renamed or dropped would read as this change's cost.
    if (!base.torch_version.empty() && !result.torch_version.empty() && base.torch_version != result.torch_version)
      throw InputError("--base " + options.base.front() + ": PyTorch " + base.torch_version + ", the checked sources " +
                       result.torch_version + "; --base compares a change with its base in one release (compare "
                       "releases with `dispatchctl diff`)");
    if (base.registry && result.registry && result.in_scope && result.not_loaded.empty()) {
      std::vector<Finding> costs;
      // CUDA judged from the YAML only when both sides are YAML (a manifest
      // over a CPU-only base says nothing about CUDA).
      std::optional<CudaKernelsByYaml> cuda_by_yaml;
      if (base.cuda_kernels_by_yaml && result.cuda_kernels_by_yaml)
        cuda_by_yaml = CudaKernelsByYaml{*base.cuda_kernels_by_yaml, *result.cuda_kernels_by_yaml};
      lint_changes(*base.registry, *result.registry, result.in_scope, cuda_by_yaml, costs);
      lint_formula_changes(base.formulas, result.formulas, costs);
      suggest_fixes(*base.registry, *result.registry, base.formulas, result.formulas, costs);
      // Located like every other finding (a JSON manifest's pointer becomes its line).
      locate_findings(costs);
      // One cause, one finding: a backend kernel beside a CompositeImplicitAutograd
      // one whose cost is a backward that raises is that cost, not also the warning.
      std::set<std::string> raising;
      for (const auto& f : costs)
        if (f.rule == "backward-not-implemented") raising.insert(f.op);
      std::erase_if(result.findings,
                    [&](const Finding& f) { return f.rule == "cia-with-backend-kernel" && raising.count(f.op); });
      for (auto& f : costs)
        if (auto s = severity_for(options, f.rule)) {
          apply_severity(options, f, *s);
          result.findings.push_back(std::move(f));
        }
      sort_findings(result.findings, sources);
    }
    result.notes.insert(result.notes.begin(), base.notes.begin(), base.notes.end());
    compare_to_base(result, std::move(base), options.show_existing);
    return result;
  }
  CheckLoad load = load_for_check(sources, options.layering);
  CheckResult result;
  result.sources = sources;
  result.notes = std::move(load.notes);
  result.not_loaded = std::move(load.not_loaded);
  result.formulas = std::move(load.formulas);
  result.cuda_kernels_by_yaml = std::move(load.cuda_kernels_by_yaml);
  std::vector<Finding> findings = std::move(load.findings);
  if (load.registry) {
    const Registry& registry = *load.registry;
    result.torch_version = registry.torch_version();
    // Every manifest file given counts, loaded or not: one that fails to load
    // leaves its operators out, never the whole base registry in (§ check).
    // load.manifest_files adds the files a typed source such as torchgen:DIR read.
    std::vector<std::string> manifest_files = load.manifest_files;
    for (const auto& s : sources)
      if (const SourceSpec spec = parse_source_spec(s);
          spec.kind == SourceSpec::Kind::File &&
          std::find(load.base_files.begin(), load.base_files.end(), spec.argument) == load.base_files.end())
        manifest_files.push_back(spec.argument);
    const LintScope scope = make_scope(registry, manifest_files, options, result.notes);
    result.in_scope = scope.contains;
    for (const auto& op : registry.operators()) result.operators_checked += scope.contains(op);
    using Lint = void (*)(const Registry&, const LintScope&, std::vector<Finding>&);
    const std::pair<std::string_view, Lint> lints[] = {
        {"dangling-impl", lint_dangling_impls},
        {"kernel-override", lint_overrides},
        {"autogradother-ambiguity", lint_ambiguity},
        {"cia-with-backend-kernel", lint_cia_with_backend},
        {"no-autograd-kernel", lint_no_autograd_kernel},
        {"required-key", lint_required_keys},
        {"stale-live-row", lint_stale_live_rows},
        {"foreign-backend-key", lint_foreign_backend_keys},
    };
    for (const auto& [rule, lint] : lints)
      if (enabled(options, rule)) lint(registry, scope, findings);
  }
  drop_refusal_cascades(findings);
  for (auto& f : findings) {
    if (auto s = severity_for(options, f.rule)) {
      apply_severity(options, f, *s);
      result.findings.push_back(std::move(f));
    }
  }
  result.registry = std::move(load.registry);
  locate_findings(result.findings);
  sort_findings(result.findings, sources);
  return result;
}

}  // namespace dispatchctl
