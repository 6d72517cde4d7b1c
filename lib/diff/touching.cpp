#include "diff/touching.h"

#include <algorithm>

#include "table/outcome.h"
#include "util/errors.h"
#include "util/join.h"

namespace dispatchctl {

namespace {

bool from_files(const Origin& origin, const std::set<std::string, std::less<>>& files) {
  return files.count(origin.file()) > 0;
}

// One side: adds to `touched` what the files register there, and the keys they register at.
void registered_by(const Registry& registry, const std::set<std::string, std::less<>>& files,
                   std::set<std::string, std::less<>>& touched, std::set<std::string>& keys, bool& seen) {
  const Catalogue& cat = registry.catalogue();
  for (const Operator& op : registry.operators()) {
    bool mine = op.schema && from_files(op.schema->origin, files);
    for (const Kernel& k : op.registrations) {
      if (!from_files(k.origin, files)) continue;
      mine = true;
      if (cat.is_runtime(k.key)) keys.insert(cat.name(k.key));
    }
    if (mine) touched.insert(std::string(op.name));
  }
  for (const Fallback& fb : registry.fallbacks()) seen = seen || from_files(fb.origin, files);
  seen = seen || !touched.empty();
}

// Operators of one side whose row at one of `keys` is a composite that calls
// (directly, or through composites followed to a fixpoint) a touched operator.
void composites_reaching(const Registry& registry, const std::set<std::string>& keys,
                         std::set<std::string, std::less<>>& touched) {
  const Catalogue& cat = registry.catalogue();
  std::vector<Key> runtime;
  for (const auto& name : keys)
    if (auto k = cat.find(name); k && cat.is_runtime(*k)) runtime.push_back(*k);
  OutcomeFollower follower(registry, computed_row_of(registry));
  // Each operator's callee at each key, computed once.
  std::vector<std::pair<std::string_view, std::string_view>> calls;  // caller, callee
  for (const Operator& op : registry.operators())
    for (Key k : runtime) {
      const RowOutcome followed = follower.classify(op, compute_row(registry, op, k));
      if (followed.needs.op) calls.emplace_back(op.name, followed.needs.op->name);
    }
  for (bool grew = true; grew;) {
    grew = false;
    for (const auto& [caller, callee] : calls)
      if (touched.count(callee) && touched.insert(std::string(caller)).second) grew = true;
  }
}

}  // namespace

std::set<std::string, std::less<>> touching_operators(const Registry& old_registry, const Registry& new_registry,
                                                      const std::vector<std::string>& files,
                                                      const std::vector<std::string>& keys) {
  const std::set<std::string, std::less<>> wanted(files.begin(), files.end());
  std::set<std::string, std::less<>> touched;
  std::set<std::string> registered_keys;
  bool seen = false;
  registered_by(old_registry, wanted, touched, registered_keys, seen);
  registered_by(new_registry, wanted, touched, registered_keys, seen);
  if (!seen)
    throw InputError("--touching " + join(files, ", ") + ": registers nothing on either side; name a manifest " +
                     "given with --old or --new (sources: " + join(new_registry.sources, ", ") + ")");
  const std::set<std::string> at = keys.empty() ? registered_keys : std::set<std::string>(keys.begin(), keys.end());
  composites_reaching(old_registry, at, touched);
  composites_reaching(new_registry, at, touched);
  return touched;
}

}  // namespace dispatchctl
