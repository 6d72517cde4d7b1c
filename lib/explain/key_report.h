// How one dispatch key fares across a whole registry (`explain --key K`
// without an operator): where the key sits, what covers it, and every
// operator sorted into the outcome of its row.
#pragma once

#include <string>
#include <vector>

#include "table/outcome.h"

namespace dispatchctl {

struct OutcomeGroup {
  std::string id;     // "kernel", "CompositeImplicitAutograd", "fallback", "missing", …
  std::string label;  // PyTorch's words, e.g. "math kernel (via CompositeImplicitAutograd)"
  bool raises = false;  // every row of the group is known to raise
  std::vector<const Operator*> ops;
};

struct KeyReport {
  Key key = k_undefined;
  bool alias = false;
  std::size_t operator_count = 0;  // operators considered (after --op)
  // Runtime keys:
  int table_index = 0;           // 0-based slot in the runtime key order (Undefined = 0), lowest priority first
  int table_size = 0;
  Key functionality = k_undefined;
  int backend = 0;               // 1-based, 0 = none
  Key lower = k_undefined, higher = k_undefined;  // neighbours in table order (k_undefined at the ends)
  bool has_lower = false, has_higher = false;
  std::vector<Key> covering_aliases;  // alias precedence order
  const Fallback* fallback = nullptr;
  std::string fallback_does;  // what that fallback does when called; "" for one that just runs
  std::vector<Key> autograd_backends;  // getBackendKeySetFromAutograd, for autograd keys
  bool python_parseable = false;
  // Alias keys:
  std::vector<Key> covers;
  // Runtime keys: every operator's row by outcome (table/outcome.h), as report counts them.
  OutcomeCounts outcomes{};
  // Both: non-empty groups in a fixed order.
  std::vector<OutcomeGroup> groups;
};

// The group ids a report of `k` can have, in order (what --list accepts).
std::vector<std::string> outcome_group_ids(const Catalogue& cat, Key k);
// `ops` is the operators to sort (all, or those --op selected). A building
// block throws InputError (name one of its runtime keys).
KeyReport key_report(const Registry& registry, Key k, const std::vector<const Operator*>& ops);
// A --list argument -> group ids: a group id, a tag id or tag text
// ("math kernel"), or "all". InputError with did-you-mean otherwise.
std::vector<std::string> resolve_group(const Catalogue& cat, Key k, const std::string& name);

}  // namespace dispatchctl
