#include "inventory/builtin_inventory.h"

#include "builtin/builtin.h"
#include "load/load_registry.h"

namespace dispatchctl {

BuiltinInventory builtin_inventory() {
  BuiltinInventory inventory;
  inventory.cuda_registries = builtin_names_of_build("CUDA");
  for (const auto& b : builtin_registries()) {
    BuiltinRegistrySummary s;
    s.name = std::string(k_builtin_prefix) + std::string(b.version);
    const auto registry = load_registry({s.name});
    s.release = b.release;
    s.build = b.build;
    s.predicted_from = b.predicted_from;
    s.reference_build = registry->catalogue().spec().reference_build;
    s.backends = build_backends(*registry);
    s.operators = registry->operators().size();
    for (const auto& op : registry->operators()) s.kernels += op.registrations.size();
    s.fallbacks = registry->fallbacks().size();
    s.is_default = s.name == k_default_registry;
    inventory.registries.push_back(std::move(s));
  }
  return inventory;
}

}  // namespace dispatchctl
