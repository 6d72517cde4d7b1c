// write_manifest (registry/manifest.h): a registry as one manifest.
#include <nlohmann/json.hpp>

#include "registry/composite_calls.h"
#include "registry/manifest.h"
#include "registry/manifest_names.h"

namespace dispatchctl {

using json = nlohmann::ordered_json;

std::string write_manifest(const Registry& registry, const std::string& torch_version) {
  const Catalogue& cat = registry.catalogue();
  json doc;
  doc["dispatchctl_manifest"] = 1;
  doc["torch_version"] = torch_version;
  json fallbacks = json::array();
  for (const auto& fb : registry.fallbacks()) {
    json entry{{"key", cat.name(fb.key)}, {"kernel", fb.debug}};
    if (fb.fallthrough) entry["fallthrough"] = true;
    fallbacks.push_back(std::move(entry));
  }
  doc["fallbacks"] = std::move(fallbacks);
  json operators = json::array();
  for (const auto& op : registry.operators()) {
    json entry{{"name", op.name}};
    if (op.schema) {
      entry["schema"] = op.schema->text;
      entry["debug"] = op.schema->debug;
      if (op.schema->alias_analysis_explicit) entry["alias_analysis"] = op.schema->alias_analysis;
    }
    json kernels = json::array();
    for (const auto& k : op.registrations) {
      json kj{{"key", cat.name(k.key)}, {"kernel", k.debug}};
      if (k.fallthrough) kj["fallthrough"] = true;
      if (k.signature) kj["signature"] = *k.signature;
      if (!k.boxed) kj["boxed"] = false;
      if (k.unboxed == k.fallthrough) kj["unboxed"] = k.unboxed;
      if (k.then != KernelThen::Default) kj["then"] = k_then_names[static_cast<int>(k.then)];
      if (const GeneratedCall* call = registry.generated_call(k))
        kj["generated_call"] = {{"op", call->callee}, {"kind", generated_call_kind_id(call->kind)}};
      kernels.push_back(std::move(kj));
    }
    if (!kernels.empty()) entry["kernels"] = std::move(kernels);
    operators.push_back(std::move(entry));
  }
  doc["operators"] = std::move(operators);
  if (registry.composite_call_count() > 0 || !registry.all_backward_calls().empty())
    doc["composite_calls"] = composite_calls_json(registry);
  return doc.dump(1) + "\n";
}

}  // namespace dispatchctl
