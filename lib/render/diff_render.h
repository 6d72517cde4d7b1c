// Renderers for `diff`: text that shows the shape of a change first, then
// the details, and stable JSON. Over diff/diff.h's result; they never print.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "diff/diff.h"

namespace dispatchctl {

struct DiffRenderOptions {
  bool summary_only = false;  // header and shape lines, no details
  std::string old_label;      // "builtin:2.14.1"
  std::string new_label;      // "builtin:2.14.1 + cea.json"
};

// The one-line shape of a group, without the operator name, e.g.
// "CompositeExplicitAutograd now fills 69 keys that were math kernel".
std::string describe_group(const OperatorDiff& op, const ChangeGroup& group);
std::string diff_text(const DiffResult& result, const DiffRenderOptions& options);
nlohmann::ordered_json diff_json(const DiffResult& result, const DiffRenderOptions& options);
// The same document as text, one operator per line (fast on full registries).
std::string diff_json_text(const DiffResult& result, const DiffRenderOptions& options);

}  // namespace dispatchctl
