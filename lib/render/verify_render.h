// `verify`'s result as text (counts, then the first differences as unified
// diffs) and as JSON.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "verify/verify.h"

namespace dispatchctl {

std::string verify_text(const VerifyResult& result);
nlohmann::ordered_json verify_json(const VerifyResult& result);

}  // namespace dispatchctl
