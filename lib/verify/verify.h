// `verify`: recompute every table and state an export recorded from the real
// PyTorch (its "recorded" member: _dispatch_dump_table and _dispatch_dump text
// per operator) and compare byte for byte. The trust signal for a release
// dispatchctl has never seen.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "registry/manifest.h"
#include "registry/registry.h"

namespace dispatchctl {

struct RecordedDumps {
  std::map<std::string, std::string> tables;  // op -> _dispatch_dump_table text
  std::map<std::string, std::string> states;  // op -> _dispatch_dump text
};
// Adds a manifest's recorded dumps; InputError names the JSON pointer of a bad one.
void read_recorded(const ManifestDocument& manifest, RecordedDumps& into);

struct VerifyDifference {
  std::string op;
  std::string kind;  // "table" or "state"
  std::string diff;  // unified diff, recorded (---) against computed (+++)
};

struct VerifyResult {
  size_t tables_total = 0, tables_identical = 0;
  size_t states_total = 0, states_identical = 0;
  std::vector<std::string> missing;           // recorded but not in the registry
  std::vector<VerifyDifference> differences;  // the first few, in operator order
  bool all_identical() const {
    return tables_identical == tables_total && states_identical == states_total && missing.empty();
  }
};

VerifyResult verify_recorded(const Registry& registry, const RecordedDumps& recorded,
                             size_t max_differences = 5);

// A unified diff of two texts (one hunk per changed region, 3 lines of context).
std::string unified_diff(const std::string& before, const std::string& after,
                         const std::string& before_label, const std::string& after_label);

}  // namespace dispatchctl
