#include "render/diff_render.h"

#include <map>

#include "builtin/builtin.h"
#include "keys/key_summary.h"
#include "render/show_render.h"
#include "render/json_document.h"
#include "util/log.h"
#include "util/join.h"

namespace dispatchctl {
namespace {

constexpr size_t k_width = 80;

std::string count(size_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

bool is_python(const RowShape& s) { return s.language == KernelLanguage::Python; }

// How a row was filled, as a reader says it: "math kernel",
// "default backend kernel from CompositeExplicitAutograd".
std::string was_words(const RowShape& s) {
  if (s.rule == Rule::Missing) return "no kernel";
  std::string words(tag_text(s.rule));
  if ((s.rule == Rule::CompositeExplicitAutograd || s.rule == Rule::CompositeExplicitAutogradNonFunctional) &&
      !s.provider.empty())
    words += " from " + s.provider;
  if (is_python(s)) words += " (python)";
  return words;
}

// Who fills a row now: the alias, "a direct kernel", "the backend fallback".
std::string filler_words(const RowShape& s) {
  const std::string python = is_python(s) ? " (python)" : "";
  if (!s.provider.empty()) return s.provider + python;
  if (s.rule == Rule::Direct) return is_python(s) ? "a direct python kernel" : "a direct kernel";
  if (s.rule == Rule::BackendFallback) return "the backend fallback" + python;
  return std::string(tag_text(s.rule)) + python;
}

std::string kernel_words(const Row& row) {
  if (!row.valid()) return "no kernel";
  std::string out(tag_text(row.rule));
  if (row_language(row) == KernelLanguage::Python) out += " (python)";
  out += ": ";
  if (row.fallthrough()) out += "fallthrough ";
  out += row.debug().empty() ? std::string("(no debug string)") : std::string(row.debug());
  return out;
}

std::vector<Key> runtime_keys_named(const Catalogue& cat, const std::vector<std::string>& names) {
  std::vector<Key> keys;
  for (const auto& n : names)
    if (auto k = cat.find(n)) keys.push_back(*k);
  return keys;
}

std::string key_list(const DiffResult& r, const OperatorDiff& op, const ChangeGroup& g) {
  std::vector<std::string> names;
  for (size_t i : g.rows) names.push_back(op.rows[i].key);
  return summarize_keys(r.new_registry->catalogue(), runtime_keys_named(r.new_registry->catalogue(), names));
}

std::string origin_words(const Origin& origin) {
  const std::string where = origin.to_string();
  return where.empty() ? "" : "  (" + where + ")";
}

void append_group_details(std::string& out, const DiffResult& r, const OperatorDiff& op, const ChangeGroup& g) {
  out += "  " + describe_group(op, g) + ":\n";
  out += "      " + wrap_words(key_list(r, op, g), 6, 6, k_width) + "\n";
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
  // What a call does, where it changed (a fallback's rows: only this says it).
  for (size_t i : g.rows) {
    const RowChange& c = op.rows[i];
    if (c.before_outcome.outcome != c.after_outcome.outcome)
      out += "      a call at " + c.key + ": " + std::string(outcome_id(c.before_outcome.outcome)) + " -> " +
             std::string(outcome_id(c.after_outcome.outcome)) + "\n";
  }
}

// "PrivateUse1 missing, AutogradPrivateUse1 composite": an added or removed
// operator's outcomes at the --key keys.
std::string one_side_outcomes(const OperatorDiff& op) {
  std::string out;
  for (const RowChange& c : op.rows)
    out += (out.empty() ? "" : ", ") + c.key + " " +
           std::string(outcome_id(op.change == OperatorDiff::Change::Added ? c.after_outcome.outcome
                                                                             : c.before_outcome.outcome));
  return out;
}

std::string fallback_words(const Fallback* fb, bool locations) {
  if (!fb) return "none";
  std::string words = (fb->fallthrough ? "fallthrough " : "") + kernel_identity(short_debug(fb->debug), locations);
  if (kernel_language(fb->debug, fb->origin.file()) == KernelLanguage::Python) words += " (python)";
  return words;
}

// Counts, keys not compared, fallbacks, and row transitions per key: the
// answer to "what behaves differently", on one screen.
void append_summary(std::string& out, const DiffResult& r, const DiffRenderOptions& options) {
  const auto c = r.counts();
  out += wrap_words(count(c.operators_changed, "operator behaves", "operators behave") + " differently, " +
                        std::to_string(c.operators_added) + " added, " + std::to_string(c.operators_removed) +
                        " removed; " + count(c.rows_changed, "row changed", "rows changed") + "; " +
                        count(c.registrations_added, "registration added", "registrations added") + ", " +
                        std::to_string(c.registrations_removed) + " removed; fallbacks: " +
                        std::to_string(c.fallbacks_changed) + " changed, " + std::to_string(c.fallbacks_added) +
                        " added, " + std::to_string(c.fallbacks_removed) + " removed",
                    0, 2, k_width) +
         "\n";
  if (!options.locations)
    out += "(kernels compared without file:line; --locations compares it too)\n";
  const Catalogue& oc = r.old_registry->catalogue();
  const Catalogue& nc = r.new_registry->catalogue();
  if (!r.keys_only_old.empty())
    out += wrap_words("keys only in " + options.old_label + " (not compared): " +
                          summarize_keys(oc, runtime_keys_named(oc, r.keys_only_old)),
                      0, 2, k_width) + "\n";
  if (!r.keys_only_new.empty())
    out += wrap_words("keys only in " + options.new_label + " (not compared): " +
                          summarize_keys(nc, runtime_keys_named(nc, r.keys_only_new)),
                      0, 2, k_width) + "\n";
  if (!r.fallbacks.empty()) {
    // Fallbacks that changed the same way are one line.
    out += "\nbackend fallbacks (rows = operators whose row is the fallback):\n";
    std::map<std::tuple<int, std::string, std::string>, std::pair<std::vector<std::string>, size_t>> same;
    std::vector<std::tuple<int, std::string, std::string>> order;
    for (const auto& fb : r.fallbacks) {
      auto id = std::make_tuple(static_cast<int>(fb.change), fallback_words(fb.before, options.locations), fallback_words(fb.after, options.locations));
      auto [it, fresh] = same.try_emplace(id);
      if (fresh) order.push_back(id);
      it->second.first.push_back(fb.key);
      it->second.second += fb.operators_affected;
    }
    for (const auto& id : order) {
      const auto& [keys, rows] = same[id];
      const auto& [change, was, now] = id;
      const auto kind = static_cast<FallbackChange::Change>(change);
      const Catalogue& cat = kind == FallbackChange::Change::Removed ? oc : nc;
      std::string line = std::string(kind == FallbackChange::Change::Added     ? "  added "
                                     : kind == FallbackChange::Change::Removed ? "  removed "
                                                                               : "  changed ") +
                         summarize_keys(cat, runtime_keys_named(cat, keys)) + ": ";
      line += kind == FallbackChange::Change::Added     ? now
              : kind == FallbackChange::Change::Removed ? was
                                                        : was + " -> " + now;
      line += " (" + count(rows, "row", "rows") + ")";
      out += wrap_words(line, 0, 4, k_width) + "\n";
    }
  }
  const auto transitions = r.transitions();
  if (transitions.empty()) return;
  // Keys with the same transitions (and counts) share a line: "Dense*: …".
  out += "\nrows changed, per key (was -> now: rows):\n";
  std::vector<std::pair<std::string, std::vector<std::string>>> lines;  // text, keys
  for (size_t i = 0; i < transitions.size();) {
    size_t j = i;
    std::string text;
    size_t shown = 0, more = 0;
    for (; j < transitions.size() && transitions[j].key == transitions[i].key; ++j) {
      if (shown++ < 4)
        text += (text.empty() ? "" : ", ") + shape_words(transitions[j].before) + " -> " +
                shape_words(transitions[j].after) + ": " + std::to_string(transitions[j].rows);
      else
        more += transitions[j].rows;
    }
    if (more) text += ", other: " + std::to_string(more);
    auto it = std::find_if(lines.begin(), lines.end(), [&](const auto& l) { return l.first == text; });
    if (it == lines.end()) lines.push_back({text, {transitions[i].key}});
    else it->second.push_back(transitions[i].key);
    i = j;
  }
  for (const auto& [text, keys] : lines)
    out += wrap_words("  " + summarize_keys(nc, runtime_keys_named(nc, keys)) + ": " + text, 0, 4, k_width) + "\n";
}

nlohmann::ordered_json shape_json(const RowShape& s) {
  return {{"tag_id", tag_id(s.rule)}, {"provider", s.provider}, {"language", language_id(s.language)}};
}

nlohmann::ordered_json fallback_json(const Fallback* fb) {
  if (!fb) return nullptr;
  return {{"kernel", fb->debug},
          {"fallthrough", fb->fallthrough},
          {"language", language_id(kernel_language(fb->debug, fb->origin.file()))},
          {"origin", fb->origin.to_string()}};
}

nlohmann::ordered_json side_json(const DiffResult& r, bool before, const Row& row) {
  if (!row.valid()) return nullptr;
  const Registry& reg = before ? *r.old_registry : *r.new_registry;
  return row_json(reg.catalogue(), row);
}

}  // namespace

std::string shape_words(const RowShape& s) {
  if (s.rule == Rule::Missing) return "missing";
  return std::string(tag_text(s.rule)) + (is_python(s) ? " (python)" : "");
}

std::string describe_group(const OperatorDiff& op, const ChangeGroup& g) {
  const bool one = g.rows.size() == 1;
  std::string n = count(g.rows.size(), "key", "keys");
  if (g.rows.size() <= 3) {
    n += " (" + join(g.rows, ", ", [&op](size_t i) { return op.rows[i].key; }) + ")";
  }
  const std::string were = one ? " that was " : " that were ";
  const std::string was = was_words(g.before);
  if (g.after.rule == Rule::Missing) return n + were + was + (one ? " now has no kernel" : " now have no kernel");
  if (g.after.rule == Rule::AmbiguousAutogradOther)
    return n + were + was + (one ? " is" : " are") + " now ambiguous autogradother (a call raises)";
  if (g.before.rule == Rule::Missing) return filler_words(g.after) + " now fills " + n + " that had no kernel";
  if (g.before == g.after) return n + " changed kernel (still " + was + ")";
  if (g.before.rule == g.after.rule && g.before.provider == g.after.provider)
    return n + " changed kernel from " + std::string(language_words(g.before.language)) + " to " +
           std::string(language_words(g.after.language)) + " (still " + std::string(tag_text(g.after.rule)) + ")";
  return filler_words(g.after) + " now fills " + n + were + was;
}

std::string diff_text(const DiffResult& r, const DiffRenderOptions& options) {
  std::string out = "--- " + options.old_label + "\n+++ " + options.new_label + "\n";
  if (r.empty()) return out + "no differences\n";
  append_summary(out, r, options);
  if (options.summary_only) return out;
  // One line per operator and group.
  out += "\n";
  for (const auto& op : r.operators) {
    if (op.change != OperatorDiff::Change::Changed) {
      out += op.name + ": " + change_name(op.change) + " (" +
             count(op.registrations.size(), "registration", "registrations") + ")" +
             (op.rows.empty() ? "" : ": " + one_side_outcomes(op)) + "\n";
      continue;
    }
    if (op.schema_before || op.schema_after) out += op.name + ": schema changed\n";
    for (const auto& g : op.groups) out += op.name + ": " + describe_group(op, g) + "\n";
    if (op.groups.empty() && !op.registrations.empty())
      out += op.name + ": " + count(op.registrations.size(), "registration", "registrations") +
             " changed, no row changed\n";
  }
  // Then the details.
  for (const auto& op : r.operators) {
    out += "\n" + op.name + "\n";
    if (op.schema_before || op.schema_after)
      out += "  schema: " + op.schema_before.value_or("(none)") + "\n       -> " +
             op.schema_after.value_or("(none)") + "\n";
    for (const auto& reg : op.registrations)
      out += std::string("  ") + (reg.added ? "+ " : "- ") + reg.key + ": " +
             (reg.kernel->fallthrough ? "fallthrough " : "") + reg.kernel->debug +
             (is_python_kernel(*reg.kernel) ? " (python kernel)" : "") + origin_words(reg.kernel->origin) + "\n";
    for (const auto& g : op.groups) append_group_details(out, r, op, g);
  }
  return out;
}

static nlohmann::ordered_json diff_json_header(const DiffResult& r, const DiffRenderOptions& options) {
  using json = nlohmann::ordered_json;
  const auto c = r.counts();
  json doc = json_document();
  doc["old"] = {{"label", options.old_label}, {"sources", r.old_registry->sources},
                {"torch_version", r.old_registry->torch_version()}};
  doc["new"] = {{"label", options.new_label}, {"sources", r.new_registry->sources},
                {"torch_version", r.new_registry->torch_version()}};
  // A predicted side says so (builtin:2.14.1+cuda), as every command's JSON does.
  for (const auto& [side, registry] : {std::pair{"old", r.old_registry}, std::pair{"new", r.new_registry}})
    if (std::string note = predicted_registry_note(registry->sources); !note.empty()) doc[side]["registry_note"] = note;
  doc["equal"] = r.empty();
  doc["locations"] = options.locations;
  json transitions = json::array();
  for (const auto& t : r.transitions())
    transitions.push_back({{"key", t.key}, {"before", shape_json(t.before)}, {"after", shape_json(t.after)},
                           {"rows", t.rows}});
  doc["summary"] = {{"operators_added", c.operators_added},
                    {"operators_removed", c.operators_removed},
                    {"operators_changed", c.operators_changed},
                    {"rows_changed", c.rows_changed},
                    {"registrations_added", c.registrations_added},
                    {"registrations_removed", c.registrations_removed},
                    {"fallbacks_added", c.fallbacks_added},
                    {"fallbacks_removed", c.fallbacks_removed},
                    {"fallbacks_changed", c.fallbacks_changed},
                    {"keys_only_old", r.keys_only_old},
                    {"keys_only_new", r.keys_only_new},
                    {"transitions", std::move(transitions)}};
  json fallbacks = json::array();
  for (const auto& fb : r.fallbacks) {
    const char* change = fb.change == FallbackChange::Change::Added     ? "added"
                         : fb.change == FallbackChange::Change::Removed ? "removed"
                                                                        : "changed";
    fallbacks.push_back({{"change", change}, {"key", fb.key}, {"before", fallback_json(fb.before)},
                         {"after", fallback_json(fb.after)}, {"operators_affected", fb.operators_affected}});
  }
  doc["fallbacks"] = std::move(fallbacks);
  return doc;
}

static nlohmann::ordered_json operator_json(const DiffResult& r, const OperatorDiff& op, bool summary_only) {
  using json = nlohmann::ordered_json;
  json o;
  o["name"] = op.name;
  o["change"] = change_name(op.change);
  json groups = json::array();
  for (const auto& g : op.groups) {
    json keys = json::array();
    for (size_t i : g.rows) keys.push_back(op.rows[i].key);
    groups.push_back({{"summary", describe_group(op, g)}, {"before", shape_json(g.before)},
                      {"after", shape_json(g.after)}, {"keys", std::move(keys)}});
  }
  o["groups"] = std::move(groups);
  if (summary_only) return o;
  if (op.schema_before || op.schema_after)
    o["schema"] = {{"before", op.schema_before ? json(*op.schema_before) : json()},
                   {"after", op.schema_after ? json(*op.schema_after) : json()}};
  json regs = json::array();
  for (const auto& reg : op.registrations)
    regs.push_back({{"change", reg.added ? "added" : "removed"}, {"key", reg.key},
                    {"kernel", reg.kernel->debug}, {"fallthrough", reg.kernel->fallthrough},
                    {"language", language_id(kernel_language(*reg.kernel))},
                    {"origin", reg.kernel->origin.to_string()}});
  o["registrations"] = std::move(regs);
  json rows = json::array();
  for (const auto& row : op.rows) {
    json change = {{"key", row.key}, {"before", side_json(r, true, row.before)},
                   {"after", side_json(r, false, row.after)},
                   {"before_outcome", outcome_id(row.before_outcome.outcome)},
                   {"after_outcome", outcome_id(row.after_outcome.outcome)}};
    // A generated composite: the operator whose row at the key decided its outcome.
    if (row.before_outcome.needs.op) change["before_needs"] = row.before_outcome.needs.op->name;
    if (row.after_outcome.needs.op) change["after_needs"] = row.after_outcome.needs.op->name;
    if (row.by_fallback) change["by_fallback"] = true;
    rows.push_back(std::move(change));
  }
  o["rows"] = std::move(rows);
  return o;
}

nlohmann::ordered_json diff_json(const DiffResult& r, const DiffRenderOptions& options) {
  nlohmann::ordered_json doc = diff_json_header(r, options);
  doc["operators"] = nlohmann::ordered_json::array();
  for (const auto& op : r.operators) doc["operators"].push_back(operator_json(r, op, options.summary_only));
  return doc;
}

std::string diff_json_text(const DiffResult& r, const DiffRenderOptions& options) {
  PhaseTimer timer("render");
  // One operator per line, built and dropped one at a time.
  std::string out = diff_json_header(r, options).dump(2);
  out.erase(out.size() - 2);  // "\n}"
  out += ",\n  \"operators\": [";
  // Serialized straight onto `out` (json::dump's bytes, without its string
  // and the copies of concatenating it): most of a release diff's time.
  out.reserve(out.size() + r.operators.size() * 2048);
  nlohmann::detail::serializer<nlohmann::ordered_json> serializer(
      nlohmann::detail::output_adapter<char, std::string>(out), ' ');
  for (size_t i = 0; i < r.operators.size(); ++i) {
    out += i ? ",\n    " : "\n    ";
    serializer.dump(operator_json(r, r.operators[i], options.summary_only), false, false, 0);
  }
  out += r.operators.empty() ? "]\n}\n" : "\n  ]\n}\n";
  return out;
}

}  // namespace dispatchctl
