#include "explain/needs.h"

#include <algorithm>
#include <map>
#include <set>

#include "table/outcome.h"

namespace dispatchctl {

namespace {

// Depth-first over what a row's kernel calls at the key (the outcome model's
// own edges: table/outcome_follow.cpp), collecting the missing rows.
class NeedsWalk {
 public:
  NeedsWalk(const Registry& registry) : registry_(registry) {}

  // The missing operators under (op, k); counts each for every failing row above it.
  const std::set<const Operator*>& leaves(const Operator& op, Key k, int depth = 0) {
    const auto id = std::make_pair(&op, k);
    if (auto it = memo_.find(id); it != memo_.end()) return it->second;
    std::set<const Operator*>& out = memo_[id];  // empty while walked: a cycle adds nothing
    if (depth > 24) return out;
    const Catalogue& cat = registry_.catalogue();
    const Row row = compute_row(registry_, op, k);
    const Outcome o = classify_row(cat, row);
    std::set<const Operator*> found;
    if (o == Outcome::Missing) {
      found.insert(&op);
    } else if (row.kernel && row.rule != Rule::BackendFallback) {
      auto visit = [&](std::string_view name, Key at) {
        if (const Operator* callee = registry_.find(name); callee && callee != &op) {
          const auto& below = leaves(*callee, at, depth + 1);
          found.insert(below.begin(), below.end());
        }
      };
      if (const GeneratedCall* call = registry_.generated_call(*row.kernel)) visit(call->callee, k);
      if (const CompositeCalls* calls = recorded_calls_at(registry_, *row.kernel, k)) {
        if (calls->raises && calls->raises_when == CallWhen::Always) found.insert(&op);  // a stub: implement it
        for (const RecordedCall& c : calls->calls)
          if (c.when == CallWhen::Always) visit(c.op, k);
      }
      if (is_autograd_row(cat, k) && row.rule != Rule::CompositeImplicitAutograd && cat.backend_of(k) > 0) {
        const Key below = cat.runtime_key(cat.well_known().dense, cat.backend_of(k));
        const auto& under = leaves(op, below, depth + 1);
        found.insert(under.begin(), under.end());
      }
    }
    for (const Operator* leaf : found) ++unblocks_[leaf];
    memo_[id] = std::move(found);
    return memo_[id];
  }

  std::vector<NeededOperator> ranked(const std::set<const Operator*>& leaves) const {
    std::vector<NeededOperator> out;
    for (const Operator* leaf : leaves) out.push_back({leaf, unblocks_.at(leaf)});
    std::stable_sort(out.begin(), out.end(), [](const NeededOperator& a, const NeededOperator& b) {
      return a.unblocks != b.unblocks ? a.unblocks > b.unblocks : a.op->name < b.op->name;
    });
    return out;
  }

 private:
  const Registry& registry_;
  std::map<std::pair<const Operator*, Key>, std::set<const Operator*>> memo_;
  std::map<const Operator*, std::size_t> unblocks_;
};

}  // namespace

OperatorNeeds operator_needs(const Registry& registry, const Operator& op, Key k) {
  OperatorNeeds needs;
  needs.key = k;
  NeedsWalk walk(registry);
  const std::set<const Operator*> forward = walk.leaves(op, k);
  std::set<const Operator*> backward;
  if (const auto* calls = registry.backward_calls(op.name)) {
    needs.backward_recorded = true;
    std::vector<RecordedCall> all = *calls;
    all.insert(all.end(), registry.backward_seed().begin(), registry.backward_seed().end());
    for (const RecordedCall& c : all)
      if (const Operator* callee = registry.find(c.op); callee && c.when == CallWhen::Always)
        for (const Operator* leaf : walk.leaves(*callee, k))
          if (!forward.count(leaf)) backward.insert(leaf);
  }
  needs.forward = walk.ranked(forward);
  needs.backward = walk.ranked(backward);
  needs.forward_works = forward.empty();
  return needs;
}

}  // namespace dispatchctl
