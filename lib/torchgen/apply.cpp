#include "torchgen/apply.h"

#include <unordered_map>
#include <unordered_set>

#include "torchgen/refusals.h"
#include "torchgen/add_backends.h"
#include "util/errors.h"
#include "util/log.h"
#include "util/join.h"
#include "util/split_list.h"
#include "util/suggest.h"

namespace dispatchctl::torchgen {
namespace {

const ReleaseRules& rules_or_throw(std::string_view version, const std::string& where) {
  return rules_for_any_release(version, where);
}

Kernel predicted_kernel(const PredictedRegistration& r, Registry& registry) {
  const Catalogue& catalogue = registry.catalogue();
  const auto key = catalogue.find(r.key);
  if (!key)
    throw InputError(r.loc.to_string() + ": dispatch key '" + r.key + "' does not exist in PyTorch " +
                     std::string(catalogue.version()));
  Kernel k;
  k.key = *key;
  // No YAML line in the debug text: `diff` compares it, and an edit above an
  // op must not change the op's rows. The origin keeps file:line.
  const std::string yaml = r.loc.file.substr(r.loc.file.rfind('/') + 1);
  k.debug = registry.keep("registered at " + r.generator + " [torchgen " + r.rule + ", " + yaml + "]");
  k.origin = Origin{r.loc.file, "", r.loc.line};  // the rule is in the debug text
  k.source = predicted_source(r.generator);
  k.source_known = true;
  return k;
}

Schema predicted_schema(const PredictedOperator& op) {
  Schema s;
  s.text = op.schema;
  s.debug = "registered at RegisterSchema.cpp (torchgen)";
  s.alias_analysis = "FROM_SCHEMA";
  s.origin = Origin{op.loc.file, "", op.loc.line};
  return s;
}

bool schema_from_codegen(const Schema& s) {
  return parse_kernel_source(s.debug).generator == KernelGenerator::RegisterSchema;
}

// An operator whose schema torchgen generated and whose YAML entry is gone
// vanishes with every registration, hand-written ones included. Those name
// it through what torchgen generates from the entry (OP_DECOMPOSE's
// ATEN_FN(op), at::_ops::op, at::native::op's declaration), so the build does
// not compile until they go too; one registered by name alone would be a
// dangling impl (`schema: (none)`), which PyTorch's own test_dispatch
// (test_find_dangling_impls: zero expected) refuses. The build an accepted
// YAML edit leads to has neither.
bool deleted_by_yaml(const Operator& op, bool predicted, const ReleaseRules& rules) {
  return !predicted && op.schema && schema_from_codegen(*op.schema) && !rules.schema_template_ops.count(op.name);
}

}  // namespace

Predictions predict_from_inputs(const TorchgenInputs& inputs, const Catalogue& catalogue,
                                const TorchgenOptions& options) {
  const ReleaseRules& rules = rules_or_throw(catalogue.version(), inputs.native_functions.path);
  ParseOptions parse{&rules, &catalogue, options.build_backends};
  TorchgenModel model = parse_torchgen_inputs(inputs, parse);
  add_generated_functions(model, rules);
  if (!options.go_on_after_refusal) refuse_if_any(model, rules);
  return predict(model, rules, compiled_keys(rules, options.build_backends));
}

std::set<std::string> compiled_backends(const Registry& registry, const ReleaseRules& rules) {
  std::set<std::string> out;
  for (const Operator& op : registry.operators())
    for (const Kernel& k : op.registrations)
      for (const auto& [backend, keys] : rules.backend_keys)
        if (!out.count(backend) && keys.count(registry.catalogue().name(k.key)) && k.source.built_by_torchgen())
          out.insert(backend);
  return out;
}

void apply_torchgen(Registry& base, const TorchgenInputs& inputs, const TorchgenOptions& options) {
  const ReleaseRules& rules = rules_or_throw(base.catalogue().version(), inputs.native_functions.path);
  // Another build of the base (a CUDA build of a CPU-only export): what the two
  // builds differ in is only the added backends' Register<Key>.cpp files, so
  // the base keeps its registrations, exact even where the rules are not.
  const std::set<std::string> base_backends = compiled_backends(base, rules);
  std::set<std::string> added;
  for (const std::string& b : options.build_backends)
    if (!base_backends.count(b)) added.insert(b);
  if (!base_backends.empty() && !added.empty()) {
    add_backend_predictions(base, inputs, options.build_backends, added);
    base.sources.push_back("torchgen:" + inputs.native_functions.path);
    log_note("torchgen:{}: a build with {} added to the base's ({}): its registrations at those backends' keys are "
             "added, the base's others kept (layer the YAML without ?build-backends= first to replace those)",
             inputs.native_functions.path, join(added), join(base_backends));
    return;
  }
  apply_predictions(base, predict_from_inputs(inputs, base.catalogue(), options), inputs.native_functions.path);
}

Predictions predict_from_model(const TorchgenModel& model, const ReleaseRules& rules, const TorchgenOptions& options) {
  return predict(model, rules, compiled_keys(rules, options.build_backends));
}

void apply_predictions(Registry& base, const Predictions& predictions, const std::string& native_functions_path) {
  const Catalogue& catalogue = base.catalogue();
  const ReleaseRules& rules = rules_or_throw(catalogue.version(), native_functions_path);

  std::unordered_map<std::string, const PredictedOperator*> predicted_ops;
  for (const auto& op : predictions.operators) predicted_ops[op.name] = &op;
  std::unordered_map<std::string, std::vector<const PredictedRegistration*>> kernels;
  for (const auto& r : predictions.registrations) kernels[r.op].push_back(&r);

  Registry out(catalogue, base.torch_version());
  out.sources = base.sources;
  out.sources.push_back("torchgen:" + native_functions_path);
  out.on_refused = base.on_refused;
  // The base's kernels were accepted against the base's schemas; a YAML edit
  // that changes a schema is reported by `check`, not refused here.
  out.check_signatures = false;
  out.carry_registry_tables(base);
  for (const auto& fb : base.fallbacks()) out.fallback(fb);

  // A prediction that agrees with a base codegen registration keeps that
  // kernel's identity (debug text, signature), so `diff` against the base
  // shows only what the YAML changes; its origin becomes the YAML line.
  auto register_predicted = [&](const std::string& name, const Operator* base_op) {
    auto it = kernels.find(name);
    if (it == kernels.end()) return;
    for (const PredictedRegistration* r : it->second) {
      Kernel k = predicted_kernel(*r, out);
      // Not across kinds: a formula the YAML adds (a fork's main that drifted
      // from the release) makes a real VariableType kernel where the release
      // had the boxed autograd-not-implemented one.
      const Kernel* agrees = nullptr;  // the base's kernel this prediction is
      if (base_op)
        for (const Kernel& b : base_op->registrations)
          if (b.key == k.key && b.source.built_by_torchgen() && !(is_autograd_not_implemented(b) && r->has_formula)) {
            const Origin origin = k.origin;
            k = b;
            k.origin = origin;
            agrees = &b;
            break;
          }
      if (r->not_implemented) {
        k.signature = OptionalText();
        k.boxed = true;
        k.unboxed = false;
      }
      // The base's side tables (out= checks …) stay with the kernel; what it
      // calls is the prediction's (below).
      if (agrees) out.impl_carried(base, *agrees, name, k, false);
      else out.impl(name, k);
      if (!r->calls.empty())
        out.record_generated_call(out.find(name)->registrations.back(), r->calls, r->call_kind);
    }
  };
  std::unordered_set<std::string> done;
  for (const Operator& op : base.operators()) {
    done.insert(op.name);
    const auto predicted = predicted_ops.find(op.name);
    if (deleted_by_yaml(op, predicted != predicted_ops.end(), rules)) continue;
    if (predicted != predicted_ops.end()) {
      Schema schema = predicted_schema(*predicted->second);
      if (op.schema && op.schema->text == schema.text) {
        const Origin origin = schema.origin;
        schema = *op.schema;
        schema.origin = origin;
      }
      out.define(op.name, schema);
    } else if (op.schema && (!schema_from_codegen(*op.schema) || rules.schema_template_ops.count(op.name))) {
      out.define(op.name, *op.schema);
    }
    register_predicted(op.name, &op);
    for (const Kernel& k : op.registrations)
      if (!k.source.built_by_torchgen()) out.impl_carried(base, k, op.name, k);
    if (!out.find(op.name)) out.declare(op.name);
  }
  for (const auto& op : predictions.operators) {
    if (done.count(op.name)) continue;
    out.define(op.name, predicted_schema(op));
    register_predicted(op.name, nullptr);
  }
  out.check_signatures = base.check_signatures;
  base = std::move(out);
}

std::set<std::string> parse_build_backends(const std::string& list, const std::string& release) {
  const ReleaseRules& rules = rules_or_throw(release, "--build-backends");
  std::set<std::string> backends;
  std::vector<std::string_view> known;
  for (const auto& [name, keys] : rules.backend_keys) known.push_back(name);
  for (const std::string& name : split_list(list, "--build-backends")) {
    if (!rules.backend_keys.count(name)) {
      throw InputError("--build-backends: unknown backend '" + name + "'" + did_you_mean(name, known) +
                       " (known: " + join(known) + ")");
    }
    backends.insert(name);
  }
  return backends;
}

}  // namespace dispatchctl::torchgen
