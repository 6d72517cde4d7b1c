// The YAML files' lines as check --base's suggested fixes (fixes.cpp) edit
// them: read once per file, an entry's range, its dispatch: table, and where a
// base's entry goes back into the change's file.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "check/finding.h"

namespace dispatchctl::fix_lines {

using Lines = std::vector<std::string>;

// The file's lines, each with its '\n' (empty when it cannot be read: a builtin: base has no file).
const Lines& lines_of(std::map<std::string, Lines>& cache, const std::string& file);

// A YAML entry: its first line (1-based) and the lines below it indented under it.
struct Range {
  int first = 0, end = 0;  // [first, end), 1-based
};
Range entry_at(const Lines& lines, int line);

// The entry's `dispatch:` table (its line and the deeper-indented ones), or an empty range.
Range dispatch_table(const Lines& lines, Range entry);

std::string text_of(const Lines& lines, Range r);

// Where in the change's file the base's entry goes back: before the first
// entry that followed it in the base and is still there (the same first
// line: the next one may have been deleted with it), else at the end.
FixEdit reinsert(const Lines& base, Range entry, const Lines& change, const std::string& file);

}  // namespace dispatchctl::fix_lines
