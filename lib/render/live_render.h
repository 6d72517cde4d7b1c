// How `show --live` marks stale live rows (docs/dispatch-semantics.md §3.3): a
// text section after the grouped table and fields on the JSON rows.
#pragma once

#include "util/wrap.h"

#include <string>

#include <nlohmann/json.hpp>

#include "live/live_table.h"

namespace dispatchctl {

// "live table: N stale rows" and one paragraph per stale row (live vs recomputed,
// and which registration last refreshed it). Nothing when no row is stale.
void append_stale_text(std::string& out, const Registry& registry, const Operator& op,
                       const LiveTable& live, bool color, size_t width = k_default_width);
// Adds "live": true, "stale_rows": [...] and, on every row object, "stale"
// (and "computed": the recomputed row when stale) to a show_json() object.
void annotate_live_json(nlohmann::ordered_json& op_json, const Registry& registry,
                        const Operator& op, const LiveTable& live);

}  // namespace dispatchctl
