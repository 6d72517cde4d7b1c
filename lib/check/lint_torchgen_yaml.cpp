#include "check/lint_torchgen_yaml.h"
#include "builtin/builtin_catalogues.h"

#include <limits>
#include <map>
#include <optional>
#include <set>

#include "builtin/builtin.h"
#include "load/load_registry.h"
#include "load/source_spec.h"
#include "torchgen/apply.h"
#include "torchgen/backend_yaml.h"
#include "torchgen/info_matcher.h"
#include "torchgen/refusals_detail.h"
#include "torchgen/refusals.h"
#include "util/file_io.h"
#include "util/errors.h"
#include "util/parse_number.h"
#include "registry/operator_name.h"

namespace dispatchctl::torchgen {
namespace {

constexpr std::string_view k_rule = "torchgen-refusal";

Finding refusal_finding(const Refusal& r) {
  Finding out;
  out.rule = std::string(k_rule);
  out.severity = Severity::Error;
  out.message = r.reason + "; " + r.fix;
  out.location = dispatchctl::Location{r.loc.file, "", r.loc.line, 0};
  out.op = r.op;
  out.kind = r.id;
  return out;
}

// "PATH:LINE: message" -> a finding at PATH:LINE. What torchgen's own reading
// of the YAML stops at (YAML syntax, an unknown field, key or tag, a malformed
// schema, a duplicate operator) is a torchgen refusal of kind "parse" at that
// line; an input that cannot be read at all (no such file) stays a load-error.
Finding from_input_error(const std::string& what, const TorchgenInputs& inputs) {
  Finding f;
  f.rule = "load-error";
  f.severity = Severity::Error;
  f.message = what;
  for (const YamlSource* s : {&inputs.native_functions, inputs.tags ? &*inputs.tags : nullptr,
                              inputs.derivatives ? &*inputs.derivatives : nullptr,
                              inputs.deprecated ? &*inputs.deprecated : nullptr}) {
    if (!s || what.rfind(s->path + ":", 0) != 0) continue;
    f.location.file = s->path;
    const std::string_view rest = std::string_view(what).substr(s->path.size() + 1);
    const size_t colon = rest.find(':');
    const auto line = parse_integer<int>(rest.substr(0, colon), 0, std::numeric_limits<int>::max());
    f.location.line = line.value_or(0);
    f.message = line ? std::string(rest.substr(colon + 1 + (rest.substr(colon + 1).starts_with(' ') ? 1 : 0)))
                     : std::string(rest);
  }
  if (f.location.file.empty()) f.location.file = inputs.native_functions.path;
  return f;
}

}  // namespace

namespace {

// Parses once: the refusals become findings, and the model (or nullopt when
// the YAML does not load) is what `check` goes on with.
std::optional<TorchgenModel> lint_and_parse(const TorchgenInputs& inputs, const Catalogue& catalogue,
                                            const ReleaseRules& rules, std::vector<Finding>& out) {
  try {
    ParseOptions options{&rules, &catalogue, {"CPU"}};
    TorchgenModel model = parse_torchgen_inputs(inputs, options);
    add_generated_functions(model, rules);
    // gen_autograd stops at a derivatives.yaml entry's first assert, and
    // what follows it there is mostly its cascade (a formula keyed `input:`
    // for `self:` reads as a forward formula next): one finding per entry.
    // So does torchgen.gen at an operator's (an in-place operator returning
    // two tensors is refused for its returns, not also for its grouping).
    std::set<std::string> entries_refused;
    std::set<std::pair<std::string, int>> operators_refused;
    for (const Refusal& r : find_refusals(model, rules)) {
      const bool formula = inputs.derivatives && r.loc.file == inputs.derivatives->path && !r.op.empty();
      if (formula && !entries_refused.insert(r.op).second) continue;
      const bool entry = r.loc.file == inputs.native_functions.path && !r.op.empty() && r.loc.line > 0;
      if (entry && !operators_refused.insert({r.op, r.loc.line}).second) continue;
      out.push_back(refusal_finding(r));
    }
    return model;
  } catch (const TorchgenRefusal& e) {
    out.push_back(refusal_finding(e.refusal));  // torchgen's own assert stopped the reading
  } catch (const InputError& e) {
    out.push_back(from_input_error(e.what(), inputs));
  }
  return std::nullopt;
}

}  // namespace

std::vector<Finding> lint_torchgen_yaml(const TorchgenInputs& inputs, const Catalogue& catalogue) {
  std::vector<Finding> out;
  if (const ReleaseRules* rules = rules_for_release(catalogue.version())) lint_and_parse(inputs, catalogue, *rules, out);
  return out;
}

namespace {

// The formulas' facts `check --base` compares (lint_formula_changes).
void record_formulas(const TorchgenModel& model, const ReleaseRules& rules, std::map<std::string, FormulaFact>& out) {
  std::map<std::string, std::vector<std::string>> by_signature;
  // out= variants are left out: their VariableType kernel refuses inputs that require grad anyway.
  for (const auto& f : model.functions)
    if (schema_kind(f.func) != SchemaKind::Out) by_signature[torchgen_text(signature(f.func))].push_back(f.name());
  for (const auto& info : model.derivatives) {
    FormulaFact fact;
    fact.file = info.loc.file;
    fact.line = info.loc.line;
    // One not_implemented(…) formula makes the entry's backward node raise (for
    // that input: the judge reads the node, as users meet it when that input
    // requires grad).
    for (const auto& formula : info.formulas) {
      if (formula.key != "Default") continue;
      const std::string first = split_formula_names(formula.names).front();
      if (!is_argument_name(info.func, first)) {
        fact.forward = true;
      } else if (!formula.non_differentiable && formula.text.starts_with("not_implemented(") &&
                 !fact.backward_raises) {
        fact.backward_raises = true;
        fact.raising_inputs = formula.names;
      }
    }
    const std::string bare = op_name(info.func);
    const std::string name = qualified_name(bare);
    fact.ops.push_back(name);
    for (const auto& other : by_signature[torchgen_text(signature(info.func))]) {
      const std::string qualified = qualified_name(other);
      if (qualified != name) fact.ops.push_back(qualified);
      const NativeFunction* f = model.find(other);
      if (f && schema_kind(f->func) != SchemaKind::Functional) fact.inplace_ops.push_back(qualified);
    }
    out[name] = std::move(fact);
  }
  // A _foreach_ op takes its formulas, the forward one too, from its
  // reference (gen_foreach_derivativeinfo): _foreach_frac_ from frac. Its
  // backward node raises where the reference's does (the fourteenth corpus'
  // trunc formula made not_implemented: _foreach_trunc and _foreach_trunc_ too).
  for (const auto& f : model.functions) {
    const SchemaKind kind = schema_kind(f.func);
    if (!is_foreach(f) || (kind != SchemaKind::Inplace && kind != SchemaKind::Functional)) continue;
    const DifferentiabilityInfo* ref = foreach_reference(f, model, rules);
    if (!ref) continue;
    const std::string bare = op_name(ref->func);
    auto it = out.find(qualified_name(bare));
    if (it == out.end()) continue;
    const std::string name = qualified_name(f.name());
    it->second.ops.push_back(name);
    if (kind == SchemaKind::Inplace) it->second.inplace_ops.push_back(name);
  }
}

}  // namespace

bool load_torchgen_source_for_check(const SourceSpec& source, CheckLoad& load) {
  std::unique_ptr<Registry>& registry = load.registry;
  std::vector<Finding>& findings = load.findings;
  std::vector<std::string>& files = load.manifest_files;
  const bool backend = source.kind == SourceSpec::Kind::TorchgenBackend;
  if (!backend && source.kind != SourceSpec::Kind::Torchgen) return false;
  const std::string& path = source.argument;
  TorchgenInputs inputs{{path, ""}, std::nullopt, std::nullopt};
  try {
    if (!registry) {
      // A backend YAML names PyTorch's operators; torchgen's own YAML defines them.
      if (backend) registry = load_registry({std::string(k_default_registry)});
      else registry = std::make_unique<Registry>(*builtin_catalogue(k_default_release), std::string(k_default_release));
    }
    if (backend) {
      files.push_back(path);
      apply_backend_yaml(*registry, {path, read_input_file(path)});
      return true;
    }
    inputs = read_torchgen_inputs(path);
    files.push_back(inputs.native_functions.path);
    if (inputs.derivatives) files.push_back(inputs.derivatives->path);
    if (inputs.deprecated) files.push_back(inputs.deprecated->path);
    const ReleaseRules& rules = rules_for_any_release(registry->catalogue().version(), path);
    const std::optional<TorchgenModel> model = lint_and_parse(inputs, registry->catalogue(), rules, findings);
    if (!model) {  // the YAML does not load
      load.not_loaded.push_back(source.text);
      return true;
    }
    record_formulas(*model, rules, load.formulas);
    TorchgenOptions options;
    options.go_on_after_refusal = true;
    if (!source.build_backends.empty())
      options.build_backends = parse_build_backends(source.build_backends, registry->torch_version());
    if (!options.build_backends.count("CUDA"))
      load.cuda_kernels_by_yaml = operators_with_kernel_at(*model, rules, "CUDA");
    apply_predictions(*registry, predict_from_model(*model, rules, options), inputs.native_functions.path);
  } catch (const InputError& e) {
    findings.push_back(from_input_error(e.what(), inputs));
    load.not_loaded.push_back(source.text);
  }
  return true;
}

}  // namespace dispatchctl::torchgen
