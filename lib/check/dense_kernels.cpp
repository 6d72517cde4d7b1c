#include "check/dense_kernels.h"

namespace dispatchctl {

bool lost_row(Rule r) {
  return r == Rule::Missing || r == Rule::BackendFallback || r == Rule::AmbiguousAutogradOther;
}

namespace {

bool has_kernel(const Registry& registry, const Operator& op, Key k) {
  return !lost_row(compute_row(registry, op, k).rule);
}

}  // namespace

DenseKernels::DenseKernels(const Registry& before, const Registry& after, const std::optional<CudaKernelsByYaml>& yaml)
    : before_(before), after_(after), yaml_(yaml), build_(build_backends(after)) {}

std::vector<Key> DenseKernels::lost(const Operator& old, const Operator& now) const {
  std::vector<Key> had;
  for (const char* name : {"CPU", "CUDA"}) {
    // By name: a base of another release numbers its keys otherwise.
    const auto key = after_.catalogue().find(name);
    const auto old_key = before_.catalogue().find(name);
    if (!key || !old_key) continue;
    // Composite kernels reach the key in any build; its own kernels only
    // where the build compiles it, else the YAML says (CUDA).
    bool was = has_kernel(before_, old, *old_key), is = has_kernel(after_, now, *key);
    if (!build_.compiled_in(name)) {
      if (!yaml_ || std::string_view(name) != "CUDA") continue;
      was = was || yaml_->before.count(old.name) > 0;
      is = is || yaml_->after.count(now.name) > 0;
    }
    if (is) return {};
    if (was) had.push_back(*key);
  }
  return had;
}

std::string DenseKernels::unjudged_note() const {
  return build_.compiled_in("CUDA") || yaml_ ? "" : " (a build without CUDA: CUDA's kernels are not judged)";
}

}  // namespace dispatchctl
