#include "query/predicates.h"

#include <algorithm>
#include <cctype>

#include "explain/kernel_kind.h"
#include "query/op_select.h"
#include "util/errors.h"
#include "util/suggest.h"

#if __has_include("live/live_table.h")
#include "live/live_table.h"
#define DISPATCHCTL_LIVE_REPLAY 1
#endif

namespace dispatchctl {

namespace {

constexpr Rule k_all_rules[] = {
    Rule::Direct,          Rule::CompositeExplicitAutogradNonFunctional,
    Rule::CompositeExplicitAutograd, Rule::CompositeImplicitAutogradNestedTensor,
    Rule::CompositeImplicitAutograd, Rule::AmbiguousAutogradOther,
    Rule::Autograd,        Rule::FuncTorchBatchedDecomposition,
    Rule::BackendFallback, Rule::Missing};

}  // namespace

bool has_kernel_for_dispatch_key(const Operator& op, Key k) { return op.has(k); }

Key computed_row_key(const Catalogue& cat, Key k) {
  if (cat.is_alias(k)) throw InputError("Alias keys do not have runtime kernel registrations.");
  // A per-backend functionality without a backend bit indexes the CPU slot (§1.8).
  if (cat.kind(k) == KeyKind::BuildingBlock) return cat.runtime_key(cat.functionality_of(k), 1);
  return k;
}

Row live_row(const Registry& registry, const Operator& op, Key k) {
#ifdef DISPATCHCTL_LIVE_REPLAY
  return replay_live_table(registry, op).live(k);
#else
  return compute_row(registry, op, k);
#endif
}

bool live_replay_built_in() {
#ifdef DISPATCHCTL_LIVE_REPLAY
  return true;
#else
  return false;
#endif
}

bool has_computed_kernel_for_dispatch_key(const Registry& registry, const Operator& op, Key k) {
  return live_row(registry, op, computed_row_key(registry.catalogue(), k)).valid();
}

bool row_known_to_raise(const Catalogue& cat, const Row& row) {
  if (row.rule == Rule::AmbiguousAutogradOther) return true;
  // 2.x registers a Meta fallback that raises NotImplementedError (§6, §9.1).
  if (row.rule == Rule::BackendFallback && row.key == cat.well_known().meta &&
      row.debug().find("MetaFallbackKernel") != std::string_view::npos)
    return true;
  // Undefined has no bit to mask, so a fallthrough there is called and asserts (§9.1).
  return row.key == k_undefined && row.kernel && row.kernel->fallthrough;
}

RowVerdict row_verdict(const Catalogue& cat, const Row& row) {
  if (!row_works(cat, row)) return RowVerdict::Fails;
  return row_language(row) == KernelLanguage::Python ? RowVerdict::Unknown : RowVerdict::Works;
}

std::string_view verdict_word(RowVerdict verdict) {
  switch (verdict) {
    case RowVerdict::Works: return "works";
    case RowVerdict::Fails: return "fails";
    case RowVerdict::Unknown: return "unknown";
  }
  return "";
}

std::string require_tag(std::string_view text) {
  std::string wanted;
  for (char c : text) wanted += c == ' ' || c == '-' ? '_' : static_cast<char>(std::tolower(c));
  std::vector<std::string_view> ids;
  for (Rule r : k_all_rules) {
    if (tag_id(r) == wanted) return wanted;
    if (std::find(ids.begin(), ids.end(), tag_id(r)) == ids.end()) ids.push_back(tag_id(r));
  }
  std::string list;
  for (auto id : ids) list += (list.empty() ? "" : ", ") + std::string(id);
  std::string hint = did_you_mean(wanted, ids);
  throw InputError("--tag: '" + std::string(text) + "' is not a table tag" +
                   (hint.empty() ? "; use one of " + list : hint));
}

void validate_query(const Catalogue& cat, const Query& q) {
  const bool row_mode = q.computed || q.works || q.fails || q.unknown || !q.tags.empty();
  if (!q.key && (row_mode || q.registered))
    throw InputError("--registered, --computed, --tag, --works, --fails and --unknown read the row of a key; "
                     "add --key K");
  if (q.key && !row_mode && !q.registered)
    throw InputError("--key " + cat.name(*q.key) +
                     " needs a question: add --registered, --computed, --tag TAG, --works, --fails or --unknown");
  if (q.key && row_mode && cat.is_alias(*q.key))
    throw InputError("--key " + cat.name(*q.key) +
                     ": Alias keys do not have runtime kernel registrations. Ask about one of the "
                     "runtime keys it covers (dispatchctl keys --alias " + cat.name(*q.key) +
                     "), or use --registered");
  if (q.works + q.fails + q.unknown > 1)
    throw InputError("--works, --fails and --unknown exclude each other; use one");
}

std::vector<const Operator*> run_query(const Registry& registry, const Query& q) {
  const Catalogue& cat = registry.catalogue();
  validate_query(cat, q);
  std::vector<const Operator*> candidates = q.op_patterns.empty()
                                                ? registry.sorted_operators()
                                                : select_operators(registry, q.op_patterns);
  const bool row_mode = q.computed || q.works || q.fails || q.unknown || !q.tags.empty();
  const Key row_key = row_mode ? computed_row_key(cat, *q.key) : k_undefined;
  std::vector<const Operator*> out;
  for (const Operator* op : candidates) {
    if (q.registered && !op->has(*q.key)) continue;
    if (std::any_of(q.registered_at.begin(), q.registered_at.end(), [&](Key k) { return !op->has(k); }))
      continue;
    if (std::any_of(q.without.begin(), q.without.end(), [&](Key k) { return op->has(k); })) continue;
    if (!q.tags.empty()) {
      const Rule rule = compute_row(registry, *op, row_key).rule;
      if (std::find(q.tags.begin(), q.tags.end(), tag_id(rule)) == q.tags.end()) continue;
    }
    if (q.computed || q.works || q.fails || q.unknown) {
      const Row row = live_row(registry, *op, row_key);
      if (q.computed && !row.valid()) continue;
      const RowVerdict verdict = row_verdict(cat, row);
      if (q.works && verdict != RowVerdict::Works) continue;
      if (q.fails && verdict != RowVerdict::Fails) continue;
      if (q.unknown && verdict != RowVerdict::Unknown) continue;
    }
    out.push_back(op);
  }
  return out;
}

}  // namespace dispatchctl
