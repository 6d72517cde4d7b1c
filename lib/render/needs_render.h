// explain OP --key BACKEND's "needs" (table/needs.h): what to implement, as text and JSON.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "table/needs.h"

namespace dispatchctl {

void append_needs_text(std::string& out, const Catalogue& cat, const Operator& op, const OperatorNeeds& needs);
nlohmann::ordered_json needs_json(const Catalogue& cat, const OperatorNeeds& needs);

}  // namespace dispatchctl
