#include "render/diff_render.h"

#include "render/key_summary.h"
#include "render/show_render.h"
#include "render/json_document.h"

namespace dispatchctl {
namespace {

std::string count(size_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

// How a row was filled, as a reader says it: "math kernel",
// "default backend kernel from CompositeExplicitAutograd".
std::string was_words(Rule rule, const std::string& provider) {
  if (rule == Rule::Missing) return "no kernel";
  std::string words(tag_text(rule));
  if ((rule == Rule::CompositeExplicitAutograd ||
       rule == Rule::CompositeExplicitAutogradNonFunctional) && !provider.empty())
    words += " from " + provider;
  return words;
}

// Who fills a row now: the alias, "a direct kernel", "the backend fallback".
std::string filler_words(Rule rule, const std::string& provider) {
  if (!provider.empty()) return provider;
  if (rule == Rule::Direct) return "a direct kernel";
  if (rule == Rule::BackendFallback) return "the backend fallback";
  return std::string(tag_text(rule));
}

std::string kernel_words(const Row& row) {
  if (!row.valid()) return "no kernel";
  std::string out(tag_text(row.rule));
  out += ": ";
  if (row.fallthrough()) out += "fallthrough ";
  out += row.debug().empty() ? std::string("(no debug string)") : std::string(row.debug());
  return out;
}

std::string key_list(const DiffResult& r, const OperatorDiff& op, const ChangeGroup& g) {
  // Keys of one release collapse ("Sparse*"); keys only the other side has are appended.
  const Catalogue& cat = r.new_registry->catalogue();
  std::vector<Key> keys;
  std::string others;
  for (size_t i : g.rows) {
    const auto& name = op.rows[i].key;
    if (auto k = cat.find(name); k && cat.is_runtime(*k)) keys.push_back(*k);
    else others += " " + name;
  }
  return summarize_keys(cat, keys) + others;
}

std::string origin_words(const Origin& origin) {
  const std::string where = origin.to_string();
  return where.empty() ? "" : "  (" + where + ")";
}

void append_group_details(std::string& out, const DiffResult& r, const OperatorDiff& op,
                          const ChangeGroup& g) {
  out += "  " + describe_group(op, g) + ":\n";
  out += "      " + wrap_words(key_list(r, op, g), 6, 6, 100);
  if (out.back() != '\n') out += '\n';
  auto uniform = [&](bool before) {
    const Row& first = before ? op.rows[g.rows.front()].before : op.rows[g.rows.front()].after;
    for (size_t i : g.rows) {
      const Row& row = before ? op.rows[i].before : op.rows[i].after;
      if (row.debug() != first.debug() || row.fallthrough() != first.fallthrough()) return false;
    }
    return true;
  };
  for (bool before : {true, false}) {
    const char* label = before ? "      was: " : "      now: ";
    if (uniform(before)) {
      const RowChange& c = op.rows[g.rows.front()];
      out += label + kernel_words(before ? c.before : c.after) + "\n";
      continue;
    }
    for (size_t i : g.rows) {
      const RowChange& c = op.rows[i];
      out += label + c.key + ": " + kernel_words(before ? c.before : c.after) + "\n";
    }
  }
}

std::string shape_line(const OperatorDiff& op) {
  switch (op.change) {
    case OperatorDiff::Change::Added:
      return op.name + ": added (" + count(op.registrations.size(), "registration", "registrations") + ")";
    case OperatorDiff::Change::Removed:
      return op.name + ": removed (" + count(op.registrations.size(), "registration", "registrations") + ")";
    case OperatorDiff::Change::Changed: break;
  }
  return "";
}

nlohmann::ordered_json side_json(const DiffResult& r, bool before, const Row& row) {
  if (!row.valid()) return nullptr;
  const Registry& reg = before ? *r.old_registry : *r.new_registry;
  return row_json(reg.catalogue(), row);
}

}  // namespace

std::string describe_group(const OperatorDiff& op, const ChangeGroup& g) {
  (void)op;
  const bool one = g.rows.size() == 1;
  const std::string n = count(g.rows.size(), "key", "keys");
  const std::string were = one ? " that was " : " that were ";
  const std::string was = was_words(g.before_rule, g.before_provider);
  if (g.after_rule == Rule::Missing) return n + were + was + (one ? " now has no kernel" : " now have no kernel");
  if (g.after_rule == Rule::AmbiguousAutogradOther)
    return n + were + was + (one ? " is" : " are") + " now ambiguous autogradother (a call raises)";
  const std::string filler = filler_words(g.after_rule, g.after_provider);
  if (g.before_rule == Rule::Missing) return filler + " now fills " + n + (one ? " that had" : " that had") + " no kernel";
  if (g.before_rule == g.after_rule && g.before_provider == g.after_provider)
    return n + " changed kernel (still " + was + ")";
  return filler + " now fills " + n + were + was;
}

std::string diff_text(const DiffResult& r, const DiffRenderOptions& options) {
  std::string out = "--- " + options.old_label + "\n+++ " + options.new_label + "\n";
  if (r.empty()) return out + "no differences\n";
  const auto c = r.counts();
  out += count(c.operators_changed, "operator changed", "operators changed") + ", " +
         std::to_string(c.operators_added) + " added, " + std::to_string(c.operators_removed) +
         " removed; " + count(c.rows_changed, "row changed", "rows changed") + "; " +
         count(c.registrations_added, "registration added", "registrations added") + ", " +
         std::to_string(c.registrations_removed) + " removed";
  if (c.fallbacks_added + c.fallbacks_removed)
    out += "; fallbacks: " + std::to_string(c.fallbacks_added) + " added, " +
           std::to_string(c.fallbacks_removed) + " removed";
  out += "\n\n";
  // Shape first: one line per operator and group.
  for (const auto& fb : r.fallbacks)
    out += std::string("fallback ") + (fb.added ? "added" : "removed") + " at " + fb.key + "\n";
  for (const auto& op : r.operators) {
    if (op.change != OperatorDiff::Change::Changed) {
      out += shape_line(op) + "\n";
      continue;
    }
    if (op.schema_before || op.schema_after) out += op.name + ": schema changed\n";
    for (const auto& g : op.groups) out += op.name + ": " + describe_group(op, g) + "\n";
    if (op.groups.empty() && !op.registrations.empty())
      out += op.name + ": " + count(op.registrations.size(), "registration", "registrations") +
             " changed, no row changed\n";
  }
  if (options.summary_only) return out;
  // Then the details.
  for (const auto& fb : r.fallbacks) {
    out += std::string("\nfallback ") + fb.key + "\n  " + (fb.added ? "+ " : "- ") +
           (fb.fallback->fallthrough ? "fallthrough " : "") + fb.fallback->debug +
           origin_words(fb.fallback->origin) + "\n";
  }
  for (const auto& op : r.operators) {
    out += "\n" + op.name + "\n";
    if (op.schema_before || op.schema_after)
      out += "  schema: " + op.schema_before.value_or("(none)") + "\n       → " +
             op.schema_after.value_or("(none)") + "\n";
    for (const auto& reg : op.registrations)
      out += std::string("  ") + (reg.added ? "+ " : "- ") + reg.key + ": " +
             (reg.kernel->fallthrough ? "fallthrough " : "") + reg.kernel->debug +
             origin_words(reg.kernel->origin) + "\n";
    for (const auto& g : op.groups) append_group_details(out, r, op, g);
  }
  return out;
}

static nlohmann::ordered_json diff_json_header(const DiffResult& r, const DiffRenderOptions& options) {
  using json = nlohmann::ordered_json;
  const auto c = r.counts();
  json doc = json_document();
  doc["old"] = {{"label", options.old_label}, {"sources", r.old_registry->sources},
                {"torch_version", r.old_registry->torch_version}};
  doc["new"] = {{"label", options.new_label}, {"sources", r.new_registry->sources},
                {"torch_version", r.new_registry->torch_version}};
  doc["equal"] = r.empty();
  doc["summary"] = {{"operators_added", c.operators_added},
                    {"operators_removed", c.operators_removed},
                    {"operators_changed", c.operators_changed},
                    {"rows_changed", c.rows_changed},
                    {"registrations_added", c.registrations_added},
                    {"registrations_removed", c.registrations_removed},
                    {"fallbacks_added", c.fallbacks_added},
                    {"fallbacks_removed", c.fallbacks_removed}};
  json fallbacks = json::array();
  for (const auto& fb : r.fallbacks)
    fallbacks.push_back({{"change", fb.added ? "added" : "removed"}, {"key", fb.key},
                         {"kernel", fb.fallback->debug}, {"fallthrough", fb.fallback->fallthrough},
                         {"origin", fb.fallback->origin.to_string()}});
  doc["fallbacks"] = std::move(fallbacks);
  return doc;
}

static nlohmann::ordered_json operator_json(const DiffResult& r, const OperatorDiff& op) {
  using json = nlohmann::ordered_json;
  json o;
  o["name"] = op.name;
  o["change"] = op.change == OperatorDiff::Change::Added     ? "added"
                : op.change == OperatorDiff::Change::Removed ? "removed"
                                                             : "changed";
  if (op.schema_before || op.schema_after)
    o["schema"] = {{"before", op.schema_before ? json(*op.schema_before) : json()},
                   {"after", op.schema_after ? json(*op.schema_after) : json()}};
  json regs = json::array();
  for (const auto& reg : op.registrations)
    regs.push_back({{"change", reg.added ? "added" : "removed"}, {"key", reg.key},
                    {"kernel", reg.kernel->debug}, {"fallthrough", reg.kernel->fallthrough},
                    {"origin", reg.kernel->origin.to_string()}});
  o["registrations"] = std::move(regs);
  json groups = json::array();
  for (const auto& g : op.groups) {
    json keys = json::array();
    for (size_t i : g.rows) keys.push_back(op.rows[i].key);
    groups.push_back({{"summary", describe_group(op, g)},
                      {"before", {{"tag_id", tag_id(g.before_rule)}, {"provider", g.before_provider}}},
                      {"after", {{"tag_id", tag_id(g.after_rule)}, {"provider", g.after_provider}}},
                      {"keys", std::move(keys)}});
  }
  o["groups"] = std::move(groups);
  json rows = json::array();
  for (const auto& row : op.rows)
    rows.push_back({{"key", row.key}, {"before", side_json(r, true, row.before)},
                    {"after", side_json(r, false, row.after)}});
  o["rows"] = std::move(rows);
  return o;
}

nlohmann::ordered_json diff_json(const DiffResult& r, const DiffRenderOptions& options) {
  nlohmann::ordered_json doc = diff_json_header(r, options);
  doc["operators"] = nlohmann::ordered_json::array();
  for (const auto& op : r.operators) doc["operators"].push_back(operator_json(r, op));
  return doc;
}

std::string diff_json_text(const DiffResult& r, const DiffRenderOptions& options) {
  // One operator per line, built and dropped one at a time: a diff of two
  // full registries has ~350,000 rows.
  std::string out = diff_json_header(r, options).dump(2);
  out.erase(out.size() - 2);  // "\n}"
  out += ",\n  \"operators\": [";
  for (size_t i = 0; i < r.operators.size(); ++i)
    out += std::string(i ? "," : "") + "\n    " + operator_json(r, r.operators[i]).dump();
  out += r.operators.empty() ? "]\n}\n" : "\n  ]\n}\n";
  return out;
}

}  // namespace dispatchctl
