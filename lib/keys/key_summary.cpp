#include "keys/key_summary.h"

#include <algorithm>

namespace dispatchctl {

std::string summarize_keys(const Catalogue& cat, const std::vector<Key>& keys) {
  std::string out;
  auto add = [&](const std::string& word) {
    if (!out.empty()) out += ' ';
    out += word;
  };
  const int nb = cat.backend_count();
  size_t i = 0;
  while (i < keys.size()) {
    const Key k = keys[i];
    const Key f = cat.functionality_of(k);
    if (cat.kind(k) != KeyKind::PerBackendRuntime) {
      add(cat.name(k));
      ++i;
      continue;
    }
    size_t j = i;
    std::vector<int> backends;
    while (j < keys.size() && cat.kind(keys[j]) == KeyKind::PerBackendRuntime &&
           cat.functionality_of(keys[j]) == f) {
      backends.push_back(cat.backend_of(keys[j]));
      ++j;
    }
    const std::string prefix(cat.spec().functionalities[f - 1].runtime_prefix);
    const std::string block = (prefix.empty() ? "Dense" : prefix) + "*";
    if (static_cast<int>(backends.size()) == nb) {
      add(block);
    } else if (static_cast<int>(backends.size()) > nb / 2 + 2) {
      // Most of the block: name what is left out.
      std::string except = block + "(except:";
      bool first_missing = true;
      for (int b = 1; b <= nb; ++b) {
        if (std::find(backends.begin(), backends.end(), b) != backends.end()) continue;
        except += (first_missing ? "" : ",") + std::string(cat.spec().backends[b - 1]);
        first_missing = false;
      }
      add(except + ")");
    } else if (prefix.empty() || backends.size() < 3) {
      for (size_t t = i; t < j; ++t) add(cat.name(keys[t]));
    } else {
      std::string group = prefix + "{";
      for (size_t t = 0; t < backends.size(); ++t)
        group += (t ? "," : "") + std::string(cat.spec().backends[backends[t] - 1]);
      add(group + "}");
    }
    i = j;
  }
  return out;
}

}  // namespace dispatchctl
