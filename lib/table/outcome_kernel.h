// Private to table/outcome*.cpp (and table/needs.cpp): the classification of
// a row's kernel alone, what it calls not followed: the first step of
// OutcomeFollower. Every other caller asks the follower (table/outcome.h), so
// no command counts an outcome that was not followed.
#pragma once

#include "table/outcome.h"

namespace dispatchctl::outcome_detail {

Outcome classify_kernel(const Catalogue& cat, const Row& row);

}  // namespace dispatchctl::outcome_detail
