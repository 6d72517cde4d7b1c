// `diff --format html`: the coverage page's matrix showing only the cells a
// registration change flips, each drawn before -> after. Reads only the
// operator names and changed rows of a DiffResult.
#pragma once

#include <string>

#include "diff/diff.h"

namespace dispatchctl {

std::string diff_html(const DiffResult& result, const std::string& old_label, const std::string& new_label);

}  // namespace dispatchctl
