// `check --base`: a finding is the change's when the base has no finding with
// the same identity (rule, operator, key, kind). Lines move with every edit
// above an entry, so they are never part of it; equal identities pair up
// one to one (a multiset), so a second copy of an old problem is new.
#include <map>
#include <tuple>

#include "check/check.h"

namespace dispatchctl {
namespace {

using Identity = std::tuple<std::string, std::string, std::string, std::string>;

// A finding that names no operator, key or kind (a load error, a note on a
// file) is told apart by its message: two different ones must not pair up.
Identity identity_of(const Finding& f) {
  const bool named = !f.op.empty() || !f.key.empty() || !f.kind.empty();
  return {f.rule, f.op, f.key, named ? f.kind : f.message};
}

}  // namespace

bool CheckResult::has_errors() const {
  for (const auto& f : findings)
    if (f.severity == Severity::Error && !f.pre_existing) return true;
  return false;
}

void compare_to_base(CheckResult& result, CheckResult base, bool show_existing) {
  std::map<Identity, std::vector<Finding*>> unmatched;
  for (auto& f : base.findings) unmatched[identity_of(f)].push_back(&f);
  std::vector<Finding> kept;
  result.compared_to_base = true;
  result.new_count = result.existing_count = 0;
  for (auto& f : result.findings) {
    auto it = unmatched.find(identity_of(f));
    if (it != unmatched.end() && !it->second.empty()) {
      it->second.pop_back();
      ++result.existing_count;
      if (!show_existing) continue;
      f.pre_existing = true;
    } else {
      ++result.new_count;
    }
    kept.push_back(std::move(f));
  }
  result.findings = std::move(kept);
  result.fixed.clear();
  if (!result.not_loaded.empty()) {
    // The change did not load: its registry is the base's less the change, and
    // a finding it lacks says nothing. What the base had stays pre-existing.
    for (auto& [identity, left] : unmatched) {
      result.existing_count += left.size();
      if (show_existing)
        for (Finding* p : left) {
          p->pre_existing = true;
          result.findings.push_back(std::move(*p));
        }
    }
    return;
  }
  for (auto& f : base.findings) {
    auto& left = unmatched[identity_of(f)];
    for (Finding* p : left)
      if (p == &f) result.fixed.push_back(f);
  }
}

}  // namespace dispatchctl
