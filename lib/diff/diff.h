// What changed between two registries (issue 4): operators added or
// removed, registrations added or removed, and every (operator, runtime key)
// whose computed row changed (kernel, tag or providing registration).
// Rows are compared by key name, so the two sides may be different releases.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "table/table.h"

namespace dispatchctl {

struct DiffOptions {
  std::vector<std::string> op_patterns;  // empty = every operator
  std::vector<std::string> keys;         // runtime key names; empty = every key
};

struct RegistrationChange {
  bool added = false;  // else removed
  const Kernel* kernel = nullptr;  // in the new registry when added, the old one when removed
  std::string key;                 // key name as registered
};

struct FallbackChange {
  bool added = false;
  const Fallback* fallback = nullptr;
  std::string key;
};

// One row that differs. A side without the operator, or where the row is
// missing, has rule Missing.
struct RowChange {
  std::string key;
  Row before;
  Row after;
};

// Rows whose change has the same shape: the same rule and provider alias
// before, and the same after ("CompositeExplicitAutograd now fills 58 keys
// that were math kernel").
struct ChangeGroup {
  Rule before_rule = Rule::Missing;
  std::string before_provider;  // alias name for alias rules, else ""
  Rule after_rule = Rule::Missing;
  std::string after_provider;
  std::vector<size_t> rows;  // indices into OperatorDiff::rows, table order
};

struct OperatorDiff {
  enum class Change { Added, Removed, Changed };
  std::string name;
  Change change = Change::Changed;
  std::optional<std::string> schema_before, schema_after;  // set when the schema changed
  std::vector<RegistrationChange> registrations;  // removed first, then added; registration order
  std::vector<RowChange> rows;                    // old table order, then keys only the new side has
  std::vector<ChangeGroup> groups;                // by first row
};

struct DiffResult {
  const Registry* old_registry = nullptr;
  const Registry* new_registry = nullptr;
  std::vector<FallbackChange> fallbacks;
  std::vector<OperatorDiff> operators;  // sorted by name

  bool empty() const { return fallbacks.empty() && operators.empty(); }
  struct Counts {
    size_t operators_added = 0, operators_removed = 0, operators_changed = 0, rows_changed = 0,
           registrations_added = 0, registrations_removed = 0, fallbacks_added = 0,
           fallbacks_removed = 0;
  };
  Counts counts() const;
};

// Throws InputError for a --key that neither release knows (with did-you-mean).
DiffResult diff_registries(const Registry& old_registry, const Registry& new_registry,
                           const DiffOptions& options = {});

}  // namespace dispatchctl
