#include "inventory/registry_build.h"

#include "builtin/builtin.h"
#include "load/source_spec.h"

namespace dispatchctl {

BuildBackends build_of(const Registry& registry) {
  BuildBackends build = build_backends(registry);
  for (const std::string& source : registry.sources)
    if (parse_source_spec(source).kind == SourceSpec::Kind::Python) build.exported_from_python = true;
  build.other_builds = builtin_names_of_build("CUDA");  // what a CPU-only note names
  return build;
}

}  // namespace dispatchctl
