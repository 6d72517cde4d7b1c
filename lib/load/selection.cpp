#include "load/selection.h"

#include <algorithm>

#include "registry/op_select.h"
#include "util/errors.h"

namespace dispatchctl {

namespace {

// Operators the loaded ones' recorded composite calls name that the filtered
// load left out (a manifest's calls are applied after the pack was read; a
// pack's own, decoded when asked for, name operators its load loaded).
std::vector<std::string> missing_callees(const Registry& registry) {
  std::vector<std::string> missing;
  registry.for_each_decoded_call([&](const RecordedCall& c) {
    if (!registry.find(c.op)) missing.emplace_back(c.op);
  });
  // What their backward calls (explain's needs), and then the gradient seed.
  bool backward = false;
  for (const Operator& op : registry.operators())
    if (const auto* calls = registry.backward_calls(op.name)) {
      backward = true;
      for (const RecordedCall& c : *calls)
        if (!registry.find(c.op)) missing.emplace_back(c.op);
    }
  if (backward)
    for (const RecordedCall& c : registry.backward_seed())
      if (!registry.find(c.op)) missing.emplace_back(c.op);
  return missing;
}

}  // namespace

Selection load_and_select(const LoadRequest& request, const std::vector<std::string>& patterns) {
  LoadRequest some = request;
  std::vector<std::string> wanted = patterns;
  some.only = operators_matching(wanted);
  Selection s;
  s.registry = load_registry(some);
  // What the operators' composites call decides their rows: load it too, and what that calls.
  for (int round = 0; round < 8; ++round) {
    std::size_t added = 0;
    for (std::string& name : missing_callees(*s.registry))
      if (std::find(wanted.begin(), wanted.end(), name) == wanted.end()) {
        wanted.push_back(std::move(name));
        ++added;
      }
    if (added == 0) break;  // what is still missing is in no source
    some.only = operators_matching(wanted);
    s.registry = load_registry(some);
  }
  try {
    s.operators = select_operators(*s.registry, patterns);
  } catch (const InputError&) {
    // Suggestions need every name: reload whole, and report from there.
    s.registry = load_registry(request);
    s.operators = select_operators(*s.registry, patterns);
  }
  return s;
}

}  // namespace dispatchctl
