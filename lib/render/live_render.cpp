#include "render/live_render.h"

#include "keys/key_summary.h"
#include "render/show_render.h"

namespace dispatchctl {

namespace {

std::string describe(const Catalogue& cat, const Row& row) {
  if (!row.valid()) return "missing";
  std::string out = row.fallthrough() ? "fallthrough " : "";
  out += std::string(row.debug()) + " [" + std::string(tag_text(row.rule)) + "]";
  if (row.rule != Rule::Direct && row.rule != Rule::BackendFallback && row.rule != Rule::Missing)
    out += " via " + cat.name(row.provider);
  return out;
}

}  // namespace

void append_stale_text(std::string& out, const Registry& registry, const Operator& op,
                       const LiveTable& live, bool color, size_t width) {
  const Catalogue& cat = registry.catalogue();
  const auto keys = live.stale_keys();
  if (keys.empty()) {
    out += "\n  live table: no stale rows (live = recomputed)\n";
    return;
  }
  out += "\n  ";
  out += tag_color(Rule::Missing, color);
  out += "live table: " + std::to_string(keys.size()) + " stale row" + (keys.size() == 1 ? "" : "s");
  out += color_reset(color);
  out += " (calls run the live row; _dispatch_dump_table prints the recomputed one)\n";
  for (Key k : keys) {
    const int slot = live.slot(k);
    out += "  " + cat.name(k) + "\n";
    out += wrap_words("      live:       " + describe(cat, live.rows[slot]), 0, 18, width) + "\n";
    out += wrap_words("      recomputed: " + describe(cat, live.computed[slot]), 0, 18, width) + "\n";
    out += wrap_words("      " + stale_reason(registry, op, live, k), 0, 6, width) + "\n";
  }
}

void annotate_live_json(nlohmann::ordered_json& op_json, const Registry& registry,
                        const Operator& op, const LiveTable& live) {
  const Catalogue& cat = registry.catalogue();
  op_json["live"] = true;
  nlohmann::ordered_json stale = nlohmann::ordered_json::array();
  for (Key k : live.stale_keys()) stale.push_back(cat.name(k));
  op_json["stale_rows"] = std::move(stale);
  for (auto& row : op_json["rows"]) {
    const auto key = cat.find(row["key"].get<std::string>());
    if (!key) continue;
    const bool is_stale = live.is_stale(*key);
    row["stale"] = is_stale;
    if (is_stale) {
      row["computed"] = row_json(cat, live.recomputed(*key));
      row["stale_reason"] = stale_reason(registry, op, live, *key);
    }
  }
}

}  // namespace dispatchctl
