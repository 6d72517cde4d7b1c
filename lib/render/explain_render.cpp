#include "render/explain_render.h"

#include "render/needs_render.h"

#include <map>
#include <tuple>

#include "builtin/builtin.h"
#include "keys/key_summary.h"
#include "render/json_document.h"
#include "render/show_render.h"

namespace dispatchctl {

std::string_view status_text(RuleOutcome::Status s) {
  switch (s) {
    case RuleOutcome::Status::NotApplicable: return "n/a";
    case RuleOutcome::Status::NoRegistration: return "no registration";
    case RuleOutcome::Status::Blocked: return "blocked";
    case RuleOutcome::Status::Chosen: return "CHOSEN";
    case RuleOutcome::Status::Shadowed: return "shadowed";
    case RuleOutcome::Status::NotReached: return "not reached";
    case RuleOutcome::Status::NotInRelease: return "n/a";
    case RuleOutcome::Status::Yes: return "yes";
    case RuleOutcome::Status::No: return "no";
  }
  return "";
}

std::string_view status_id(RuleOutcome::Status s) {
  switch (s) {
    case RuleOutcome::Status::NotApplicable: return "not_applicable";
    case RuleOutcome::Status::NoRegistration: return "no_registration";
    case RuleOutcome::Status::Blocked: return "blocked";
    case RuleOutcome::Status::Chosen: return "chosen";
    case RuleOutcome::Status::Shadowed: return "shadowed";
    case RuleOutcome::Status::NotReached: return "not_reached";
    case RuleOutcome::Status::NotInRelease: return "not_in_release";
    case RuleOutcome::Status::Yes: return "yes";
    case RuleOutcome::Status::No: return "no";
  }
  return "";
}

namespace {

bool builtin_origin(const Origin& o) { return o.file().rfind(k_builtin_prefix, 0) == 0; }

std::string where_from(const Catalogue& cat, const Row& row) {
  if (row.rule == Rule::BackendFallback)
    return std::string("the dispatcher-wide backend fallback of ") + cat.name(row.key) +
           (builtin_origin(row.fallback->origin) ? "" : " [" + row.fallback->origin.to_string() + "]");
  if (row.rule == Rule::AmbiguousAutogradOther) return "PyTorch's shared ambiguous kernel";
  std::string out = row.rule == Rule::Direct ? "the kernel registered directly at " + cat.name(row.key)
                                             : "the kernel registered at alias " + cat.name(row.provider);
  if (!builtin_origin(row.kernel->origin)) out += " [" + row.kernel->origin.to_string() + "]";
  return out;
}

// PyTorch's own table line for the row (dumpComputedTable), or a stand-in for a missing row.
std::string torch_line(const Catalogue& cat, const Row& row) {
  if (!row.valid()) return "(no " + cat.name(row.key) + " line in PyTorch's table: the row is missing)";
  return cat.name(row.key) + ": " + (row.fallthrough() ? "fallthrough " : "") + std::string(row.debug()) +
         " [" + std::string(tag_text(row.rule)) + "]";
}

void line(std::string& out, const std::string& text, size_t indent, size_t hang, int width) {
  out.append(indent, ' ');
  out += wrap_words(text, indent, hang, static_cast<size_t>(width)) + "\n";
}

std::string fix_text(const Catalogue& cat, const Fix& fix) {
  std::string out = fix.kind == Fix::Kind::BackendFallback
                        ? "a backend fallback for " + cat.name(fix.key) +
                              " (dispatcher-wide: every operator without a kernel there)"
                        : "a kernel at " + cat.name(fix.key);
  if (!fix.fills) return out + " would not: the row would be " + std::string(tag_text(fix.result));
  out += " -> " + std::string(tag_text(fix.result));
  if (!fix.also_fills.empty()) out += "; also fills " + summarize_keys(cat, fix.also_fills);
  if (!fix.also_changes.empty()) out += "; also replaces the kernel of " + summarize_keys(cat, fix.also_changes);
  return out;
}

void append_row_detail(std::string& out, const Registry& registry, const RowExplanation& r,
                       const ExplainTextOptions& o) {
  const Catalogue& cat = registry.catalogue();
  out += "\nPyTorch's steps for this row, in order; the first rule that fills it wins:\n";
  for (const auto& rule : r.rules) {
    std::string text = std::to_string(rule.step) + ". " + rule.label + ": " + std::string(status_text(rule.status));
    if (rule.status == RuleOutcome::Status::NotApplicable) text += " (" + cat.name(r.key) + " is not in its set)";
    else if (rule.status == RuleOutcome::Status::NotInRelease) text += " (" + rule.reason + ")";
    else if (rule.status == RuleOutcome::Status::NoRegistration) text = text.substr(0, text.rfind(": ")) + ": " + rule.reason;
    else if (rule.status == RuleOutcome::Status::NotReached) text += " (" + rule.reason + ")";
    else text += " - " + rule.reason;
    line(out, text, 2, 7, o.width);
  }
  if (!r.inactive.empty()) {
    out += "\nInactive (overridden) registrations at " + cat.name(r.row.provider) + ", newest first:\n";
    for (const Kernel* k : r.inactive)
      line(out, k->debug + (builtin_origin(k->origin) ? "" : " [" + k->origin.to_string() + "]"), 2, 4, o.width);
  }
  if (!r.notes.empty()) {
    out += "\nNotes:\n";
    for (const auto& n : r.notes) line(out, "- " + n, 2, 4, o.width);
  }
  if (!r.row.valid()) {
    const auto blank = r.error.find("\n\n");
    out += "\nA call that reaches " + cat.name(r.key) + " raises NotImplementedError:\n";
    out += "  " + r.error.substr(0, blank) + "\n";
    out += "  (then a blank line and the operator's computed table: --format json has the whole text)\n";
  }
  if (!r.fixes.empty()) {
    out += std::string("\n") + (r.row.valid() ? "To make the row run a kernel that works" : "To fill the row") +
           ", register:\n";
    for (const auto& f : r.fixes)
      if (f.fills) line(out, "- " + fix_text(cat, f), 2, 4, o.width);
    for (const auto& f : r.fixes)
      if (!f.fills && f.kind == Fix::Kind::Kernel) line(out, "- " + fix_text(cat, f), 2, 4, o.width);
  }
}

// Why the math kernel did or did not reach a row, in a few words.
std::string blocked_by(const Catalogue& cat, const RowExplanation& r) {
  for (const auto& rule : r.rules)
    if (rule.status == RuleOutcome::Status::Blocked)
      return "CompositeImplicitAutograd blocked by " + cat.name_list(rule.blockers);
  if (r.unblocked_backend != k_undefined)
    return "[quirk] the " + cat.name(r.unblocked_backend) + " kernel does not block CompositeImplicitAutograd here";
  return "";
}

// Alias or building block: rows that share an outcome are one line.
void append_compact(std::string& out, const Registry& registry, const OperatorKeyExplanation& e,
                    const ExplainTextOptions& o) {
  const Catalogue& cat = registry.catalogue();
  const Operator& op = *e.op;
  if (cat.is_alias(e.requested)) {
    const Kernel* k = op.active(e.requested);
    line(out, "registered at " + cat.name(e.requested) + ": " + (k ? k->debug : Text("nothing")), 2, 4,
         o.width);
  }
  struct Group {
    const RowExplanation* first;
    std::vector<Key> keys;
  };
  std::vector<Group> groups;
  std::map<std::tuple<int, Key, std::string, bool, std::string>, size_t> index;
  for (const auto& r : e.rows) {
    const std::string why = blocked_by(cat, r);
    auto id = std::make_tuple(static_cast<int>(r.row.rule), r.row.provider, std::string(r.row.debug()),
                              r.row.fallthrough(), why);
    auto [it, inserted] = index.emplace(id, groups.size());
    if (inserted) groups.push_back({&r, {}});
    groups[it->second].keys.push_back(r.key);
  }
  for (const auto& g : groups) {
    const Row& row = g.first->row;
    std::string tag(tag_text(row.rule));
    if (row.fallthrough()) tag = "fallthrough " + tag;
    out += "  " + std::string(tag_color(row.rule, o.color)) + tag + std::string(color_reset(o.color));
    out.append(tag.size() < 24 ? 25 - tag.size() : 1, ' ');
    out += wrap_words(summarize_keys(cat, g.keys), 27, 27, static_cast<size_t>(o.width)) + "\n";
    std::string detail = !row.valid()                             ? std::string("no kernel")
                         : row.rule == Rule::Direct                 ? std::string(row.debug())
                         : row.rule == Rule::BackendFallback        ? "backend fallback: " + std::string(row.debug())
                         : row.rule == Rule::AmbiguousAutogradOther ? std::string(row.debug())
                                                                    : "via " + cat.name(row.provider) + ": " +
                                                                          std::string(row.debug());
    if (g.first->raises) detail += " (a call raises)";
    if (const std::string why = blocked_by(cat, *g.first); !why.empty()) detail += "; " + why;
    line(out, detail, 27, 29, o.width);
  }
}

}  // namespace

void append_explain_text(std::string& out, const Registry& registry, const OperatorKeyExplanation& e,
                         const ExplainTextOptions& o) {
  const Catalogue& cat = registry.catalogue();
  if (e.rows.size() != 1 || cat.is_alias(e.requested) || cat.kind(e.requested) == KeyKind::BuildingBlock) {
    out += e.op->name + " at " + cat.name(e.requested) + " (" +
           (cat.is_alias(e.requested) ? "alias" : "building block") + "): " + std::to_string(e.rows.size()) +
           " runtime keys\n";
    append_compact(out, registry, e, o);
    return;
  }
  const RowExplanation& r = e.rows.front();
  std::string verdict = e.op->name + " at " + cat.name(r.key) + ": " + std::string(tag_text(r.row.rule));
  if (r.row.fallthrough()) verdict += " (fallthrough)";
  if (r.raises) verdict += " (a call raises)";
  if (r.stale) verdict += " (stale: a call runs " + std::string(r.live.valid() ? tag_text(r.live.rule) : "nothing") + ")";
  out += std::string(o.color ? "\x1b[1m" : "") + verdict + std::string(color_reset(o.color)) + "\n";
  // PyTorch's line, wrapped like the rest (--format json or show --format torch-table keep it whole).
  line(out, torch_line(cat, r.row), 2, 4, o.width);
  if (r.row.valid()) line(out, "from " + where_from(cat, r.row), 2, 4, o.width);
  append_row_detail(out, registry, r, o);
  if (e.needs) append_needs_text(out, cat, *e.op, *e.needs);
}

nlohmann::ordered_json explain_json(const Registry& registry, const OperatorKeyExplanation& e) {
  const Catalogue& cat = registry.catalogue();
  using J = nlohmann::ordered_json;
  auto key_names = [&](const std::vector<Key>& keys) { return key_names_json(cat, keys); };
  J doc;
  doc["operator"] = e.op->name;
  doc["schema"] = e.op->schema ? J(e.op->schema->text) : J();
  doc["key"] = cat.name(e.requested);
  doc["key_kind"] = cat.is_alias(e.requested) ? "alias"
                    : cat.kind(e.requested) == KeyKind::BuildingBlock ? "building_block"
                                                                     : "runtime";
  J rows = J::array();
  for (const auto& r : e.rows) {
    J j;
    j["key"] = cat.name(r.key);
    j["verdict"] = row_json(cat, r.row);
    j["raises"] = r.raises;
    J rules = J::array();
    for (const auto& rule : r.rules)
      rules.push_back({{"step", rule.step}, {"rule", rule.label}, {"status", status_id(rule.status)},
                       {"reason", rule.reason}, {"blockers", key_names(rule.blockers)}});
    j["rules"] = std::move(rules);
    J inactive = J::array();
    for (const Kernel* k : r.inactive) inactive.push_back({{"kernel", k->debug}, {"origin", k->origin.to_string()}});
    j["inactive"] = std::move(inactive);
    j["notes"] = r.notes;
    if (r.stale) j["live"] = row_json(cat, r.live);
    if (!r.row.valid()) {
      j["error"] = r.error;
      j["available"] = key_names(r.available);
    }
    if (!r.fixes.empty()) {
      J fixes = J::array();
      for (const auto& f : r.fixes)
        fixes.push_back({{"kind", f.kind == Fix::Kind::Kernel ? "kernel" : "backend_fallback"},
                         {"register_at", cat.name(f.key)}, {"fills", f.fills},
                         {"result_tag", tag_text(f.result)}, {"also_fills", key_names(f.also_fills)},
                         {"also_changes", key_names(f.also_changes)}});
      j["fixes"] = std::move(fixes);
    }
    rows.push_back(std::move(j));
  }
  doc["rows"] = std::move(rows);
  if (e.needs) doc["needs"] = needs_json(cat, *e.needs);
  return doc;
}

std::string explain_json_document_text(const Registry& registry,
                                       const std::vector<OperatorKeyExplanation>& explanations,
                                       const std::string& build_note, const std::string& registry_note) {
  nlohmann::ordered_json doc = json_document();
  doc["torch_version"] = registry.torch_version();
  if (!build_note.empty()) doc["build_note"] = build_note;
  if (!registry_note.empty()) doc["registry_note"] = registry_note;
  doc["explanations"] = nlohmann::ordered_json::array();
  for (const auto& e : explanations) doc["explanations"].push_back(explain_json(registry, e));
  return doc.dump(2) + "\n";
}

}  // namespace dispatchctl
