// What behaves differently between two registries: operators added or
// removed, registrations added or removed, backend fallbacks added, removed
// or changed, and every (operator, runtime key) row whose computed kernel
// differs. One model, rendered by lib/render/diff_render (text, JSON) and any
// other renderer; it holds pointers into both registries, which must outlive it.
//
// What counts as "different" (so a release diff answers what behaves
// differently, not what moved):
// - Kernels are compared by identity: the row's rule, the key the
//   registration sits at, fallthrough, and the debug text with source
//   locations removed (":1234" line numbers, and the "_3" of generated shards
//   such as RegisterCPU_3.cpp). DiffOptions::locations compares the exact text.
// - A row that is the backend fallback (or missing) on both sides changes only
//   when the fallback at its key changes; that is reported once, in
//   DiffResult::fallbacks with the number of operators whose row it affects,
//   not as a row of every operator. With --op, --key or --touching (a
//   backend's view of its own operators and keys) those rows are listed per
//   operator too, each side's outcome with them (RowChange::by_fallback).
// - With --key, an operator added or removed carries its rows at those keys
//   (the side it is absent from: missing), so "which new operators fail at
//   PrivateUse1" is read from the diff.
// - Rows are compared by key name. A runtime key only one release has is not
//   compared: it is listed once in keys_only_old / keys_only_new.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "table/kernel_kind.h"
#include "table/outcome.h"
#include "table/table.h"

namespace dispatchctl {

struct DiffOptions {
  std::vector<std::string> op_patterns;  // empty = every operator
  std::vector<std::string> keys;         // runtime key names; empty = every key
  bool locations = false;                // a kernel whose file:line moved counts as changed
  // Only the operators these manifest files (sources of either side) define
  // or register kernels for, and those whose composites reach them (diff/touching.h).
  std::vector<std::string> touching = {};
};

struct RegistrationChange {
  bool added = false;  // else removed
  const Kernel* kernel = nullptr;  // in the new registry when added, the old one when removed
  std::string key;                 // key name as registered
};

// The dispatcher-wide fallback at one key, before and after.
struct FallbackChange {
  enum class Change { Added, Removed, Changed };
  Change change = Change::Changed;
  std::string key;
  const Fallback* before = nullptr;  // null when added
  const Fallback* after = nullptr;   // null when removed
  // Operators (present on both sides, within --op) whose row at `key` is this
  // fallback or missing on both sides: what a call of them does there changed.
  size_t operators_affected = 0;
};

// One row that differs. A side where the row is missing has rule Missing.
struct RowChange {
  std::string key;
  Row before;
  Row after;
  // What a call reaching each side runs (table/outcome.h), generated composites
  // followed to their callee's row at the same key in that side's registry.
  RowOutcome before_outcome, after_outcome;
  // Filled by the backend fallback (or missing) on both sides: the change is the fallback's.
  bool by_fallback = false;
};

// How a row was filled, as a change group compares it.
struct RowShape {
  Rule rule = Rule::Missing;
  std::string provider;  // alias name for alias rules, else ""
  KernelLanguage language = KernelLanguage::None;
  bool operator==(const RowShape&) const = default;
};
RowShape row_shape(const Catalogue& cat, const Row& row);

// Rows of one operator whose change has the same shape ("CompositeExplicitAutograd
// now fills 58 keys that were math kernel"; "1 key changed kernel: C++ → python").
struct ChangeGroup {
  RowShape before, after;
  std::vector<size_t> rows;  // indices into OperatorDiff::rows, table order
};

struct OperatorDiff {
  enum class Change { Added, Removed, Changed };
  std::string name;
  Change change = Change::Changed;
  std::optional<std::string> schema_before, schema_after;  // set when the schema changed
  std::vector<RegistrationChange> registrations;  // removed first, then added; registration order
  std::vector<RowChange> rows;  // table order; Changed operators only
  std::vector<ChangeGroup> groups;  // by first row
};

// How many rows of one key went from one shape to another, over all operators.
struct KeyTransition {
  std::string key;
  RowShape before, after;  // provider is left empty: counts are by tag and language
  size_t rows = 0;
};

struct DiffResult {
  const Registry* old_registry = nullptr;
  const Registry* new_registry = nullptr;
  std::vector<std::string> keys_only_old, keys_only_new;  // runtime keys, table order
  std::vector<FallbackChange> fallbacks;                  // by key name
  std::vector<OperatorDiff> operators;                    // sorted by name

  bool empty() const { return fallbacks.empty() && operators.empty(); }
  struct Counts {
    size_t operators_added = 0, operators_removed = 0, operators_changed = 0, rows_changed = 0,
           registrations_added = 0, registrations_removed = 0, fallbacks_added = 0,
           fallbacks_removed = 0, fallbacks_changed = 0;
  };
  Counts counts() const;
  // Row changes of every changed operator counted per key and transition,
  // keys in the new release's table order, transitions most rows first.
  std::vector<KeyTransition> transitions() const;
};

// "added", "removed" or "changed": what every renderer calls the change.
const char* change_name(OperatorDiff::Change change);

// Throws InputError for a --key that neither release knows (with did-you-mean).
DiffResult diff_registries(const Registry& old_registry, const Registry& new_registry,
                           const DiffOptions& options = {});

// The debug text a kernel is compared by: line numbers and shard suffixes
// removed unless `locations`.
std::string kernel_identity(std::string_view debug, bool locations);

}  // namespace dispatchctl
