#include "table/needs.h"

#include <algorithm>
#include <deque>
#include <iterator>
#include <map>
#include <optional>
#include <unordered_map>

#include "table/outcome.h"

namespace dispatchctl {

namespace {

// Depth-first over what a row's kernel calls at the key (the outcome model's
// own edges: table/outcome_follow.cpp), collecting the rows a kernel at the
// key would fix: missing ones, and those whose kernel raises (PyTorch's Meta
// fallback, a recorded stub).
// Operators, sorted by address: the leaves under a row, usually a handful.
using Leaves = std::vector<const Operator*>;

void add_leaves(Leaves& into, const Leaves& more) {
  if (more.empty()) return;
  Leaves merged;
  merged.reserve(into.size() + more.size());
  std::set_union(into.begin(), into.end(), more.begin(), more.end(), std::back_inserter(merged));
  into.swap(merged);
}

class NeedsWalk {
 public:
  NeedsWalk(const Registry& registry) : registry_(registry) {}

  // The missing operators under (op, k); counts each for every failing row above it.
  const Leaves& leaves(const Operator& op, Key k, int depth = 0) {
    const auto id = (static_cast<std::uint64_t>(&op - registry_.operators().data()) << 16) | k;
    if (auto it = index_.find(id); it != index_.end()) return memo_[it->second];
    index_.emplace(id, memo_.size());
    Leaves& out = memo_.emplace_back();  // empty while walked: a cycle adds nothing (a deque: stays put)
    if (depth > 24) return out;
    const Catalogue& cat = registry_.catalogue();
    const Row row = compute_row(registry_, op, k);
    Leaves found;
    if (!row.valid() || row_known_to_raise(cat, row)) {
      found.push_back(&op);
    } else {
      auto visit = [&](std::string_view name, Key at) {
        if (const Operator* callee = registry_.find(name); callee && callee != &op)
          add_leaves(found, leaves(*callee, at, depth + 1));
      };
      if (row.kernel && row.rule != Rule::BackendFallback) {
        if (const GeneratedCall* call = registry_.generated_call(*row.kernel)) visit(call->callee, k);
        if (const CompositeCalls* calls = recorded_calls_at(registry_, *row.kernel, k)) {
          if (calls->raises && calls->raises_when == CallWhen::Always) add_leaves(found, {&op});  // a stub: implement it
          for (const RecordedCall& c : calls->calls)
            if (c.when == CallWhen::Always) visit(c.op, k);
        }
      }
      if (const auto below = key_below(cat, row)) add_leaves(found, leaves(op, *below, depth + 1));
    }
    for (const Operator* leaf : found) ++unblocks_[leaf];
    out = std::move(found);
    return out;
  }

  // The operators the backward of `op` at `k` needs beyond `forward`; nullopt: not recorded.
  std::optional<Leaves> backward(const Operator& op, Key k, const Leaves& forward) {
    const auto* calls = registry_.backward_calls(op.name);
    // A node the recording's mode sent another way: what the engine's call needs is not known.
    if (!calls || (registry_.backward_flags(op.name) & k_backward_mode_dependent)) return std::nullopt;
    Leaves out;
    auto add = [&](const RecordedCall& c) {
      if (const Operator* callee = registry_.find(c.op); callee && c.when == CallWhen::Always) {
        Leaves more;
        for (const Operator* leaf : leaves(*callee, k))
          if (!std::binary_search(forward.begin(), forward.end(), leaf)) more.push_back(leaf);
        add_leaves(out, more);
      }
    };
    for (const RecordedCall& c : *calls) add(c);
    for (const RecordedCall& c : registry_.backward_seed()) add(c);
    return out;
  }

  std::vector<NeededOperator> ranked(const Leaves& leaves) const {
    std::vector<NeededOperator> out;
    for (const Operator* leaf : leaves) out.push_back({leaf, unblocks_.at(leaf)});
    std::stable_sort(out.begin(), out.end(), [](const NeededOperator& a, const NeededOperator& b) {
      return a.unblocks != b.unblocks ? a.unblocks > b.unblocks : a.op->name < b.op->name;
    });
    return out;
  }

 private:
  const Registry& registry_;
  std::unordered_map<std::uint64_t, std::size_t> index_;  // (operator index, key) -> memo_ slot
  std::deque<Leaves> memo_;
  std::unordered_map<const Operator*, std::size_t> unblocks_;
};

bool by_name(const Operator* a, const Operator* b) { return a->name < b->name; }

std::vector<NeededAtKey> ranked(std::map<const Operator*, std::vector<const Operator*>>& rows,
                                const std::vector<const Operator*>& ops) {
  std::vector<NeededAtKey> out;
  for (auto& [op, unblocked] : rows)
    out.push_back({op, std::binary_search(ops.begin(), ops.end(), op, by_name), std::move(unblocked)});
  std::stable_sort(out.begin(), out.end(), [](const NeededAtKey& a, const NeededAtKey& b) {
    return a.rows.size() != b.rows.size() ? a.rows.size() > b.rows.size() : a.op->name < b.op->name;
  });
  return out;
}

}  // namespace

OperatorNeeds operator_needs(const Registry& registry, const Operator& op, Key k) {
  OperatorNeeds needs;
  needs.key = k;
  NeedsWalk walk(registry);
  const Leaves forward = walk.leaves(op, k);
  const auto backward = walk.backward(op, k, forward);
  needs.backward_recorded = backward.has_value();
  needs.forward = walk.ranked(forward);
  if (backward) needs.backward = walk.ranked(*backward);
  needs.forward_works = forward.empty();
  return needs;
}

KeyNeeds key_needs(const Registry& registry, const std::vector<const Operator*>& ops, Key k) {
  KeyNeeds needs;
  needs.key = k;
  NeedsWalk walk(registry);
  std::map<const Operator*, std::vector<const Operator*>> forward_rows, backward_rows;
  for (const Operator* op : ops) {
    const Leaves& forward = walk.leaves(*op, k);  // the memo is a deque: the reference stays valid
    for (const Operator* leaf : forward) forward_rows[leaf].push_back(op);
    needs.rows_needing += !forward.empty();
    if (const auto backward = walk.backward(*op, k, forward)) {
      ++needs.backward_recorded;
      for (const Operator* leaf : *backward) backward_rows[leaf].push_back(op);
    }
  }
  needs.forward = ranked(forward_rows, ops);
  needs.backward = ranked(backward_rows, ops);
  return needs;
}

}  // namespace dispatchctl
