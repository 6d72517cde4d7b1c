#include "torchgen/add_backends.h"

#include <unordered_map>
#include <vector>

#include "torchgen/apply.h"
#include "torchgen/generated_calls.h"
#include "torchgen/predict.h"
#include "util/errors.h"

namespace dispatchctl::torchgen {

std::string predicted_debug_text(const std::string& generator, const std::string& rule, const std::string& file,
                                 int line) {
  const std::string yaml = file.substr(file.rfind('/') + 1);
  return "registered at " + generator + " [predicted: torchgen " + rule + ", " + yaml + ":" +
         std::to_string(line) + "]";
}

std::size_t add_backend_predictions(Registry& registry, const TorchgenInputs& inputs,
                                    const std::set<std::string>& build_backends,
                                    const std::set<std::string>& added) {
  const Catalogue& catalogue = registry.catalogue();
  TorchgenOptions options;
  options.build_backends = build_backends;
  const Predictions predictions = predict_from_inputs(inputs, catalogue, options);
  const ReleaseRules& rules = rules_for_any_release(catalogue.version(), inputs.native_functions.path);
  std::set<std::string> keys;
  for (const std::string& backend : added) {
    const auto it = rules.backend_keys.find(backend);
    if (it == rules.backend_keys.end())
      throw InputError(inputs.native_functions.path + ": no backend '" + backend + "' in the torchgen rules");
    keys.insert(it->second.begin(), it->second.end());
  }
  std::unordered_map<std::string, std::vector<const PredictedRegistration*>> at_added_keys;
  for (const PredictedRegistration& r : predictions.registrations)
    if (keys.count(r.key) && catalogue.find(r.key)) at_added_keys[r.op].push_back(&r);

  // The base's registrations keep their order; a predicted one goes before
  // the first hand-written registration at its key, as the codegen libraries
  // load first in PyTorch, so a hand-written kernel there still wins.
  Registry out(catalogue, registry.torch_version());
  out.sources = registry.sources;
  out.on_refused = registry.on_refused;
  out.check_signatures = false;
  out.carry_registry_tables(registry);
  for (const auto& fb : registry.fallbacks()) out.fallback(fb);
  std::size_t count = 0;
  for (const Operator& op : registry.operators()) {
    if (op.schema) out.define(op.name, *op.schema);
    else out.declare(op.name);
    const auto it = at_added_keys.find(std::string(op.name));
    std::vector<const PredictedRegistration*> pending;
    if (it != at_added_keys.end()) pending = it->second;
    auto register_pending = [&](const Key* only_at) {
      for (auto& r : pending) {
        if (!r || (only_at && *catalogue.find(r->key) != *only_at)) continue;
        Kernel k;
        k.key = *catalogue.find(r->key);
        k.debug = out.keep(predicted_debug_text(r->generator, r->rule, r->loc.file, r->loc.line));
        k.origin = Origin{r->loc.file, "", r->loc.line};  // the YAML entry (check scopes findings by it)
        k.source = predicted_source(r->generator);
        k.source_known = true;
        out.impl(op.name, k);
        r = nullptr;
        ++count;
      }
    };
    for (const Kernel& k : op.registrations) {
      if (!k.source.built_by_torchgen()) register_pending(&k.key);
      out.impl_carried(registry, k, op.name, k, false);  // generated calls are recorded again below
    }
    register_pending(nullptr);
  }
  out.check_signatures = registry.check_signatures;
  record_generated_calls(out, predictions);  // the rebuilt registry's kernels are new ones
  registry = std::move(out);
  return count;
}

}  // namespace dispatchctl::torchgen
