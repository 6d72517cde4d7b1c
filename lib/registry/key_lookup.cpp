#include "registry/key_lookup.h"

#include "util/errors.h"
#include "util/suggest.h"

namespace dispatchctl {

Key require_key(const Catalogue& cat, std::string_view name, const std::string& where) {
  if (auto k = cat.find(name)) return *k;
  std::string message = where + ": '" + std::string(name) + "' is not a dispatch key of PyTorch " +
                        std::string(cat.version());
  if (auto match = closest_match(name, cat.key_names())) {
    message += "; did you mean '" + *match + "'?";
  } else {
    message += "; run 'dispatchctl keys --torch-version " + std::string(cat.version()) +
               "' for the list";
  }
  throw InputError(message);
}

Key require_runtime_key(const Catalogue& cat, std::string_view name, const std::string& where) {
  const Key k = require_key(cat, name, where);
  if (!cat.is_runtime(k))
    throw InputError(where + ": '" + std::string(name) +
                     "' is not a runtime key (it is an alias or a per-backend building block); "
                     "name a table row such as 'CPU' or 'AutogradCPU'");
  return k;
}

}  // namespace dispatchctl
