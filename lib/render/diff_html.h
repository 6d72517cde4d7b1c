// `diff --format html`: the coverage page's matrix showing only the cells a
// registration change flips, each drawn before -> after (a cell whose kernel
// changed but whose outcome did not is marked), and the operators added and
// removed listed above it. Reads only operator names, changes and changed rows.
#pragma once

#include <string>

#include "diff/diff.h"

namespace dispatchctl {

std::string diff_html(const DiffResult& result, const std::string& old_label, const std::string& new_label);

}  // namespace dispatchctl
