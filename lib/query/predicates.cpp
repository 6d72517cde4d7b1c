#include "query/predicates.h"

#include <algorithm>

#include "table/kernel_kind.h"
#include "registry/op_select.h"
#include "util/errors.h"
#include "util/join.h"
#include "util/suggest.h"
#include "util/typed_name.h"

#include "live/live_table.h"

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

Row live_row(const Registry& registry, const Operator& op, Key k) { return replay_live_table(registry, op).live(k); }

RowOf live_row_of(const Registry& registry) {
  return [&registry](const Operator& op, Key k) { return live_row(registry, op, k); };
}

bool has_computed_kernel_for_dispatch_key(const Registry& registry, const Operator& op, Key k) {
  return live_row(registry, op, computed_row_key(registry.catalogue(), k)).valid();
}

bool BuildBackends::compiled_in(std::string_view backend) const {
  return std::find(compiled.begin(), compiled.end(), backend) != compiled.end();
}

BuildBackends build_backends(const Registry& registry) {
  const Catalogue& cat = registry.catalogue();
  std::vector<bool> seen(cat.backend_count() + 1, false);
  auto note = [&](Key k) {
    if (cat.is_backend_dispatch_key(k)) seen[cat.backend_of(k)] = true;
  };
  for (const auto& op : registry.operators()) {
    // torch.distributed registers its collectives at CUDA and PrivateUse1 in
    // every build (they route to a ProcessGroup); a Python kernel is no
    // compiled backend either (2.14.1's CPU build has both at CUDA).
    if (op.name.rfind("c10d::", 0) == 0) continue;
    for (const auto& kernel : op.registrations)
      if (!is_python_kernel(kernel)) note(kernel.key);
  }
  for (const auto& fb : registry.fallbacks()) note(fb.key);
  // Every build has Meta (fake tensors), with or without kernels in this registry.
  note(cat.well_known().meta);
  BuildBackends b;
  for (int i = 1; i <= cat.backend_count(); ++i)
    (seen[i] ? b.compiled : b.not_compiled).push_back(std::string(cat.spec().backends[i - 1]));
  b.cpu_only = b.compiled_in("CPU");
  for (const char* gpu : {"CUDA", "HIP", "XPU", "MPS"}) b.cpu_only = b.cpu_only && !b.compiled_in(gpu);
  return b;
}

namespace {

std::string not_compiled_text(const std::string& backends, const BuildBackends& build) {
  const std::string& other_builds = build.other_builds;
  if (build.exported_from_python)
    return "CPU-only build (no kernels for " + backends + "): the PyTorch exported is a CPU-only build, so these "
           "rows are what it computes; for CUDA answers, run dispatchctl export -o FILE with a PyTorch built "
           "with CUDA and use -m FILE" +
           (other_builds.empty() ? "" : ", or use a built-in CUDA registry (" + other_builds + ")");
  return "CPU-only build (no kernels for " + backends + "): these rows are what a CPU-only PyTorch "
         "computes; for CUDA answers use " +
         (other_builds.empty() ? "" : "a built-in CUDA registry (" + other_builds + ") or ") +
         "your CUDA build (-m python, or dispatchctl export -o FILE)";
}

}  // namespace

std::string not_compiled_note(const Catalogue& cat, const BuildBackends& build, Key k) {
  return not_compiled_note(cat, build, std::vector<Key>{k});
}

std::string not_compiled_note(const Catalogue& cat, const BuildBackends& build, const std::vector<Key>& keys) {
  std::vector<std::string> named;
  for (Key k : keys) {
    if (cat.is_alias(k) || cat.backend_of(k) == 0) continue;
    const std::string backend(cat.spec().backends[cat.backend_of(k) - 1]);
    if (!build.compiled_in(backend) && std::find(named.begin(), named.end(), backend) == named.end())
      named.push_back(backend);
  }
  // Only a CPU-only build is said to be one: a manifest without CPU kernels is
  // rarely a whole build, and its missing backends are no news.
  if (named.empty() || !build.cpu_only) return "";
  std::string list;
  for (size_t i = 0; i < named.size(); ++i) list += (i ? (i + 1 == named.size() ? " or " : ", ") : "") + named[i];
  return not_compiled_text(list, build);
}

std::string require_tag(std::string_view text) {
  const std::string wanted = id_form(text);
  std::vector<std::string_view> ids;
  for (Rule r : k_all_rules) {
    if (tag_id(r) == wanted) return wanted;
    if (std::find(ids.begin(), ids.end(), tag_id(r)) == ids.end()) ids.push_back(tag_id(r));
  }
  const std::string list = join(ids);
  std::string hint = did_you_mean(wanted, ids);
  throw InputError("--tag: '" + std::string(text) + "' is not a table tag" +
                   (hint.empty() ? "; use one of " + list : hint));
}

Outcome require_outcome(std::string_view text) {
  if (const auto o = find_outcome(text)) return *o;
  std::vector<std::string_view> ids;
  for (Outcome o : k_all_outcomes) ids.push_back(outcome_id(o));
  const std::string hint = did_you_mean(id_form(text), ids);
  throw InputError("--outcome: '" + std::string(text) + "' is not an outcome" +
                   (hint.empty() ? "; use one of " + join(ids) : hint));
}

void validate_query(const Catalogue& cat, const Query& q) {
  const bool row_mode = q.computed || q.works || q.fails || q.unknown || !q.tags.empty() || !q.outcomes.empty();
  if (!q.key && (row_mode || q.registered))
    throw InputError("--registered, --computed, --tag, --outcome, --works, --fails and --unknown read the row of a key; "
                     "add --key K");
  if (!q.key && q.count_outcomes) throw InputError("counting the rows by outcome reads the row of a key; add --key K");
  if (q.key && !row_mode && !q.registered && !q.count_outcomes)
    throw InputError("--key " + cat.name(*q.key) +
                     " needs a question: add --registered, --computed, --tag TAG, --outcome NAME, --works, --fails or "
                     "--unknown");
  if (q.key && (row_mode || q.count_outcomes) && cat.is_alias(*q.key))
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
  const bool row_mode = q.computed || q.works || q.fails || q.unknown || !q.tags.empty() || !q.outcomes.empty();
  const Key row_key = row_mode ? computed_row_key(cat, *q.key) : k_undefined;
  std::vector<const Operator*> out;
  OutcomeFollower follower(registry, live_row_of(registry));  // one for every candidate: a shared memo
  for (const Operator* op : candidates) {
    if (q.registered && !op->has(*q.key)) continue;
    if (std::any_of(q.registered_at.begin(), q.registered_at.end(), [&](Key k) { return !op->has(k); }))
      continue;
    if (std::any_of(q.without.begin(), q.without.end(), [&](Key k) { return op->has(k); })) continue;
    if (!q.tags.empty()) {
      const Rule rule = compute_row(registry, *op, row_key).rule;
      if (std::find(q.tags.begin(), q.tags.end(), tag_id(rule)) == q.tags.end()) continue;
    }
    if (q.computed || q.works || q.fails || q.unknown || !q.outcomes.empty()) {
      const Row row = live_row(registry, *op, row_key);
      if (q.computed && !row.valid()) continue;
      const Outcome outcome = follower.classify(*op, row).outcome;
      if (!q.outcomes.empty() && std::find(q.outcomes.begin(), q.outcomes.end(), outcome) == q.outcomes.end())
        continue;
      const RowVerdict verdict = outcome_verdict(outcome);
      if (q.works && verdict != RowVerdict::Works) continue;
      if (q.fails && verdict != RowVerdict::Fails) continue;
      if (q.unknown && verdict != RowVerdict::Unknown) continue;
    }
    out.push_back(op);
  }
  return out;
}

OutcomeCounts query_outcome_counts(const Registry& registry, const Query& q) {
  const Catalogue& cat = registry.catalogue();
  validate_query(cat, q);
  const Key row_key = computed_row_key(cat, *q.key);
  OutcomeCounts counts{};
  const auto ops = q.op_patterns.empty() ? registry.sorted_operators() : select_operators(registry, q.op_patterns);
  OutcomeFollower follower(registry, live_row_of(registry));
  for (const Operator* op : ops) ++counts[static_cast<int>(follower.classify(*op, live_row(registry, *op, row_key)).outcome)];
  return counts;
}

QueryAnswer answer_query(const Registry& registry, const Query& q) {
  QueryAnswer answer;
  answer.found = run_query(registry, q);
  if (q.works) {
    Query python = q;
    python.works = false;
    python.unknown = true;
    answer.python_left_out = run_query(registry, python).size();
  }
  if (q.count_outcomes) answer.counts = query_outcome_counts(registry, q);
  return answer;
}

}  // namespace dispatchctl
