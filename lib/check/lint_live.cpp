// stale-live-row: rows where the live table (what calls run) differs from
// the recomputed one (what _dispatch_dump_table prints), §3.3. Uses
// lib/live's replay when that library is built in.
#include "check/lint.h"

#include <algorithm>

#include "live/live_table.h"
#include "keys/key_summary.h"

namespace dispatchctl {

void lint_stale_live_rows(const Registry& registry, const LintScope& scope, std::vector<Finding>& out) {
  const Catalogue& cat = registry.catalogue();
  for (const auto& op : registry.operators()) {
    if (op.registrations.empty() || !scope.contains(op)) continue;
    // A dump does not record registration order, and the live table depends on it.
    if (std::any_of(op.registrations.begin(), op.registrations.end(),
                    [](const Kernel& k) { return !k.origin.has_pointer(); }))
      continue;
    const LiveTable live = replay_live_table(registry, op);
    const std::vector<Key> stale = live.stale_keys();
    if (stale.empty()) continue;
    const Kernel* latest = &op.registrations.back();
    Finding f;
    f.rule = "stale-live-row";
    f.op = op.name;
    f.location = {std::string(latest->origin.file()), latest->origin.pointer(), latest->origin.line(), 0};
    f.message = op.name + ": the registration order leaves " + std::to_string(stale.size()) +
                (stale.size() == 1 ? " live row" : " live rows") +
                " stale (calls run another kernel than _dispatch_dump_table shows): " +
                summarize_keys(cat, stale);
    // One line per cause: the keys whose live row runs the same kernel, whose
    // table shows the same, and that were last refreshed by the same
    // registration (34 Autograd/NestedTensor keys share one cause typically).
    std::vector<std::pair<std::string, std::vector<Key>>> causes;
    for (Key k : stale) {
      const Row& now = live.live(k);
      const Row& computed = live.recomputed(k);
      std::string cause = "runs " + std::string(tag_text(now.rule)) + " " + std::string(now.debug()) +
                          "; table shows " + std::string(tag_text(computed.rule)) +
                          (computed.valid() ? " " + std::string(computed.debug()) : std::string()) + " — " +
                          stale_reason(registry, op, live, k);
      auto same = std::find_if(causes.begin(), causes.end(), [&](const auto& c) { return c.first == cause; });
      if (same == causes.end()) causes.push_back({std::move(cause), {k}});
      else same->second.push_back(k);
    }
    for (const auto& [cause, keys] : causes) {
      if (!f.details.empty()) f.details += "\n";
      // The message already lists the keys when one cause covers them all.
      f.details += (causes.size() == 1 && keys.size() > 1 ? "all " + std::to_string(keys.size())
                    : keys.size() == 1                     ? cat.name(keys.front())
                                       : summarize_keys(cat, keys) + " (" + std::to_string(keys.size()) + " keys)") +
                   ": " + cause;
    }
    out.push_back(std::move(f));
  }
}

}  // namespace dispatchctl
