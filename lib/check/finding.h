// The result model of `check`: findings of lint rules with stable
// kebab-case ids, and the rules themselves (data, so --list-checks, the
// config file and SARIF's rule table read one list).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dispatchctl {

enum class Severity { Note, Warning, Error };
std::string_view severity_name(Severity s);  // "note", "warning", "error"
std::optional<Severity> parse_severity(std::string_view name);

struct Location {
  std::string file;     // manifest path or builtin:VERSION
  std::string pointer;  // JSON pointer of the registration ("" for dumps)
  int line = 0;         // 1-based; 0 = unknown
  int column = 0;
};

// A suggested fix `check` can write out exactly: edits each replacing
// `remove` lines of `file` from `line` on by `insert` (whole lines, each
// ending in '\n'; remove = 0 inserts before `line`, line = lines + 1
// appends), with line numbers of the file before any edit. Only advice that
// is such edits gets one; the suggested-fixes test applies every one and
// re-checks.
struct FixEdit {
  std::string file;
  int line = 0;
  int remove = 0;
  std::string insert;
};
struct SuggestedFix {
  std::string description;  // what the edits do, one line
  std::vector<FixEdit> edits;
};

struct Finding {
  std::string rule;  // e.g. "kernel-override"
  Severity severity = Severity::Warning;
  std::string message;  // one line
  std::string details;  // optional further lines, e.g. PyTorch's own warning text
  Location location;
  std::string op;   // operator name, if any
  std::string key;  // dispatch key, if any
  // What exactly is wrong within the rule (a torchgen refusal's kind, a
  // missing formula's name): with rule, op and key, the finding's identity
  // that `check --base` compares (never the line).
  std::string kind;
  bool pre_existing = false;  // `check --base --show-existing`: the base has it too
  // The operator's variants the same cause reaches (its in-place and out=
  // variants for one missing formula): one finding names them all.
  std::vector<std::string> covers;
  std::optional<SuggestedFix> fix;
};

struct RuleInfo {
  std::string_view id;
  Severity default_severity;
  std::string_view summary;  // one line
  std::string_view help;     // what it means and how to fix it
};

// Every rule, in --list-checks order.
const std::vector<RuleInfo>& check_rules();
const RuleInfo* find_rule(std::string_view id);

}  // namespace dispatchctl
