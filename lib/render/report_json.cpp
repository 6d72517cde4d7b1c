// `report --format json`, written as it goes: a whole registry's report is
// ~73,000 cells, and building them as one nlohmann document first cost twice
// the CPU time of the report itself (issue 22: 239 -> 496 ms on builtin:2.14.1).
// The small head (release, sources, per-key totals) is still a document; the
// cells are appended as text, byte for byte what nlohmann's compact dump
// writes (tests/unit/test_render_report_json.cpp compares the two).
#include "render/report_html.h"

#include <string_view>

#include "builtin/builtin.h"
#include "render/json_document.h"
#include "render/outcome_render.h"

namespace dispatchctl {
namespace {

using J = nlohmann::ordered_json;

std::string dump(const J& value) { return value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace); }

// A JSON string as nlohmann's dump writes it: printable ASCII without '"' and
// '\' is copied; anything else (escapes, UTF-8, invalid bytes replaced by
// U+FFFD) goes through nlohmann, so the rules stay nlohmann's.
void append_string(std::string& out, std::string_view text) {
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte < 0x20 || byte >= 0x80 || c == '"' || c == '\\') {
      out += dump(J(std::string(text)));
      return;
    }
  }
  out += '"';
  out += text;
  out += '"';
}

void append_field(std::string& out, std::string_view name, std::string_view value) {
  out += ",\"";
  out += name;
  out += "\":";
  append_string(out, value);
}

}  // namespace

std::string coverage_json_text(const CoverageReport& report) {
  const Catalogue& cat = report.registry->catalogue();
  J doc = json_document();
  doc["torch_version"] = report.registry->torch_version();
  if (std::string note = predicted_registry_note(report.registry->sources); !note.empty())
    doc["registry_note"] = note;
  doc["sources"] = report.registry->sources;
  doc["cpu_only_build"] = report.cpu_only;
  doc["not_compiled"] = report.not_compiled;
  if (!report.build_note.empty()) doc["build_note"] = report.build_note;
  if (!report.scope.empty()) doc["scope"] = report.scope;
  doc["keys"] = J::array();
  for (std::size_t j = 0; j < report.keys.size(); ++j) {
    const KeyTotals& t = report.totals[j];
    doc["keys"].push_back({{"key", cat.name(report.keys[j])},
                           {"operators", report.operators.size()},
                           {"working", t.working},
                           {"percent", working_percent(t.by_outcome, report.operators.size())},
                           {"outcomes", outcome_counts_json(t.by_outcome)}});
  }
  doc["implement"] = implement_json(report);
  // Compact, as one line: the head without its closing brace, then the operators.
  std::string out = dump(doc);
  out.pop_back();
  out.reserve(out.size() + report.operators.size() * report.keys.size() * 120);
  // Each column's {"key":NAME opening, escaped once.
  std::vector<std::string> cell_heads;
  for (Key k : report.keys) {
    std::string head = "{\"key\":";
    append_string(head, cat.name(k));
    cell_heads.push_back(std::move(head));
  }
  out += ",\"operators\":[";
  for (std::size_t i = 0; i < report.operators.size(); ++i) {
    if (i) out += ',';
    out += "{\"name\":";
    append_string(out, report.operators[i]->name);
    out += ",\"cells\":[";
    for (std::size_t j = 0; j < report.keys.size(); ++j) {
      if (j) out += ',';
      out += cell_heads[j];
      append_field(out, "outcome", outcome_id(report.outcome(i, j)));
      if (const Row& row = report.row(i, j); row.valid()) {
        append_field(out, "tag", tag_id(row.rule));
        append_field(out, "provider", cat.name(row.rule == Rule::BackendFallback ? row.key : row.provider));
        append_field(out, "kernel", row.debug());
      }
      if (const Dependency& needs = report.dependency(i, j); needs.op) {
        append_field(out, "needs", needs.op->name);
        append_field(out, "needs_outcome", outcome_id(needs.outcome));
      }
      out += '}';
    }
    out += "]}";
  }
  out += "]}\n";
  return out;
}

}  // namespace dispatchctl
