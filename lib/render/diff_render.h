// Renderers for `diff`: text that answers "what behaves differently" on one
// screen first (counts, fallbacks, row transitions per key), then one line
// per operator and kind of change, then the details; and stable JSON. Over
// diff/diff.h's result; they never print.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "diff/diff.h"

namespace dispatchctl {

struct DiffRenderOptions {
  bool summary_only = false;  // text: the summary block only; JSON: operators without rows
  std::string old_label;      // "builtin:2.14.1"
  std::string new_label;      // "builtin:2.14.1 + cea.json"
  bool locations = false;     // the diff compared file:line (said in the header)
};

// The one-line shape of a group, without the operator name, e.g.
// "CompositeExplicitAutograd now fills 69 keys that were math kernel".
std::string describe_group(const OperatorDiff& op, const ChangeGroup& group);
// "kernel", "kernel (python)", "missing": a row shape in a transition.
std::string shape_words(const RowShape& shape);
std::string diff_text(const DiffResult& result, const DiffRenderOptions& options);
nlohmann::ordered_json diff_json(const DiffResult& result, const DiffRenderOptions& options);
// A PR comment (GitHub-flavoured markdown): counts table, one collapsible
// section per operator with its row groups and registrations (FILE#LLINE links).
std::string diff_markdown(const DiffResult& result, const DiffRenderOptions& options);
// The same document as text, one operator per line (fast on full registries).
std::string diff_json_text(const DiffResult& result, const DiffRenderOptions& options);

}  // namespace dispatchctl
