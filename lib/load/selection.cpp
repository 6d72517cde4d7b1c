#include "load/selection.h"

#include "registry/op_select.h"
#include "util/errors.h"

namespace dispatchctl {

Selection load_and_select(const LoadRequest& request, const std::vector<std::string>& patterns) {
  LoadRequest some = request;
  some.only = operators_matching(patterns);
  Selection s;
  s.registry = load_registry(some);
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
