#include "render/report_html.h"


#include "builtin/builtin.h"
#include "render/json_document.h"
#include "render/outcome_render.h"
#include "table/torch_text.h"
#include "util/join.h"

namespace dispatchctl {
namespace {

using json = nlohmann::json;

std::string provenance(const Catalogue& cat, const Row& row, Outcome outcome) {
  std::string text;
  switch (row.rule) {
    case Rule::Missing:
      return "no kernel at this key or an alias key covering it, and no backend fallback";
    case Rule::Direct: text = "kernel registered at " + cat.name(row.provider); break;
    case Rule::BackendFallback: text = "backend fallback registered for " + cat.name(row.key); break;
    case Rule::AmbiguousAutogradOther:
      return "CompositeImplicitAutograd kernel next to a kernel for an AutogradOther backend: "
             "PyTorch installs the ambiguous kernel, which raises";
    default:
      text = std::string(tag_text(row.rule)) + " via the registration at " + cat.name(row.provider);
  }
  if (outcome == Outcome::Python) return text + " (from Python: whether it returns is unknown)";
  if (outcome == Outcome::Direct) return text;
  const std::string does = outcome_does(cat, row, outcome);
  // A composite's sentence names the rule and the alias itself: say it once
  // ("default backend kernel via CompositeExplicitAutogradNonFunctional: …"),
  // not "… via the registration at X; … via X: …" (the screenshot of docs/).
  if (outcome_does_names_provider(outcome)) return does;
  return text + "; " + does;
}

// Which kernel's call the cell's "needs" follows.
std::string_view dependency_kind(DependencyVia via) {
  switch (via) {
    case DependencyVia::GeneratedCall: return ": torchgen's generated composite";
    case DependencyVia::RecordedCall: return ": a hand-written composite (its calls recorded from the release)";
    case DependencyVia::Below: return ": the autograd kernel";
  }
  return "";
}

std::string origin_of(const Row& row) {
  if (row.rule == Rule::BackendFallback && row.fallback) return row.fallback->origin.to_string();
  if (row.kernel) return row.kernel->origin.to_string();
  return "";
}

// "registered at X [kernel]": PyTorch's table line after "KEY: ".
std::string table_line_tail(const Catalogue& cat, const Row& row) {
  if (!row.valid()) return "";
  std::string line;
  append_torch_table(line, cat, {row});
  const std::size_t prefix = cat.name(row.key).size() + 2;
  return line.substr(prefix, line.size() - prefix - 1);
}

}  // namespace

MatrixPage::MatrixPage(Kind kind, std::string title, std::string subtitle, std::vector<std::string> keys) {
  doc_["kind"] = kind == Kind::Coverage ? "coverage" : "diff";
  doc_["title"] = std::move(title);
  doc_["subtitle"] = std::move(subtitle);
  doc_["keys"] = std::move(keys);
  doc_["outcomes"] = json::array();
  for (Outcome o : k_all_outcomes)
    doc_["outcomes"].push_back({{"id", outcome_id(o)}, {"label", outcome_label(o)}, {"works", outcome_works(o)}});
  doc_["strings"] = json::array();
  doc_["states"] = json::array();
  doc_["rows"] = json::array();
}

int MatrixPage::intern(const std::string& text) {
  auto [it, added] = strings_.try_emplace(text, static_cast<int>(strings_.size()));
  if (added) doc_["strings"].push_back(text);
  return it->second;
}

int MatrixPage::state(const Catalogue& cat, const Row& row, Outcome outcome, const Dependency& needs) {
  const int tail = row.valid() ? intern(table_line_tail(cat, row)) : -1;
  // A generated composite says what it needs first: "composite; needs aten::add.out (missing)".
  // Short and without the key, so a page of 65,000 cells holds one such string per callee and outcome.
  const int why = intern(needs.op ? dependency_text(cat, needs) + std::string(dependency_kind(needs.via))
                                  : provenance(cat, row, outcome));
  const std::string where = origin_of(row);
  const int origin = where.empty() ? -1 : intern(where);
  const int o = static_cast<int>(outcome);
  const std::string id = std::to_string(o) + ',' + std::to_string(tail) + ',' + std::to_string(why) + ',' +
                         std::to_string(origin);
  auto [it, added] = states_.try_emplace(id, static_cast<int>(states_.size()));
  if (added) doc_["states"].push_back({o, tail, why, origin});
  return it->second;
}

void MatrixPage::add_row(const std::string& name, const std::string& note, const std::string& schema,
                         const std::vector<std::vector<int>>& states) {
  json row = {name, note, schema.empty() ? -1 : intern(schema)};
  for (const auto& s : states) row.push_back(s);
  doc_["rows"].push_back(std::move(row));
}

void MatrixPage::set_implement(nlohmann::json implement) { doc_["implement"] = std::move(implement); }

void MatrixPage::set_operator_lists(const std::vector<std::string>& added, const std::vector<std::string>& removed) {
  doc_["added"] = added;
  doc_["removed"] = removed;
}

std::string MatrixPage::html() const {
  // '<' only occurs inside JSON strings, so \u003c keeps "</script>" out of the data.
  std::string data;
  for (char c : doc_.dump(-1, ' ', false, json::error_handler_t::replace)) {
    if (c == '<') data += "\\u003c";
    else data += c;
  }
  std::string out;
  out.reserve(data.size() + 32768);
  out += "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
         "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
         "<title>dispatchctl</title>\n<style>\n";
  out += k_report_page_css;
  out += "</style>\n</head>\n<body>\n"
         "<header>\n<h1 id=\"title\"></h1>\n<p id=\"subtitle\"></p>\n<div class=\"controls\">\n"
         "<input id=\"filter\" type=\"search\" placeholder=\"Filter operators: add, aten::*conv*\" "
         "aria-label=\"Filter operators\" autocomplete=\"off\">\n"
         "<select id=\"only\" aria-label=\"Only rows with\"><option value=\"\">every row</option></select>\n"
         "<span id=\"status\"></span>\n</div>\n<ul id=\"legend\"></ul>\n</header>\n"
         "<main>\n<section id=\"opchanges\" hidden></section>\n<section id=\"implement\" hidden></section>\n<div class=\"mhead\"><div id=\"keys\" class=\"g\"></div><div id=\"totals\" class=\"g\"></div></div>\n"
         "<div id=\"rows\"></div>\n<p id=\"empty\" hidden>No operator matches.</p>\n</main>\n"
         "<aside id=\"panel\" hidden></aside>\n"
         "<script type=\"application/json\" id=\"data\">";
  out += data;
  out += "</script>\n<script>\n";
  out += k_report_page_js;
  out += "</script>\n</body>\n</html>\n";
  return out;
}

namespace {

std::string sources_label(const Registry& reg) {
  const std::string out = join(reg.sources, " + ");
  return out.empty() ? "builtin:" + reg.torch_version() : out;
}

}  // namespace

namespace {

// report.implement as JSON; `limit` entries per list at most (the page's:
// it draws the first of each, and says how many more with the totals).
template <class J>
J implement_json_of(const CoverageReport& report, std::size_t limit) {
  const Catalogue& cat = report.registry->catalogue();
  auto list = [limit](const std::vector<NeededAtKey>& needs) {
    J out = J::array();
    for (std::size_t i = 0; i < needs.size() && i < limit; ++i)
      out.push_back({{"op", needs[i].op->name}, {"unblocks", needs[i].rows.size()}, {"in_set", needs[i].in_set}});
    return out;
  };
  J out = J::array();
  for (const KeyNeeds& needs : report.implement) {
    J entry = {{"key", cat.name(needs.key)},
               {"operators", report.operators.size()},
               {"rows_needing", needs.rows_needing},
               {"backward_recorded", needs.backward_recorded},
               {"forward", list(needs.forward)},
               {"backward", list(needs.backward)}};
    if (limit != std::size_t(-1)) {
      entry["forward_total"] = needs.forward.size();
      entry["backward_total"] = needs.backward.size();
    }
    out.push_back(std::move(entry));
  }
  return out;
}

// What the page lists per key and direction (the JSON has them all).
constexpr std::size_t k_page_needs = 25;

}  // namespace

nlohmann::ordered_json implement_json(const CoverageReport& report) {
  return implement_json_of<nlohmann::ordered_json>(report, std::size_t(-1));
}

std::string coverage_html(const CoverageReport& report) {
  const Catalogue& cat = report.registry->catalogue();
  std::vector<std::string> keys;
  for (Key k : report.keys) keys.push_back(cat.name(k));
  // The headline is what the page covers (the operator set, the sources);
  // that the build is CPU-only matters only for columns it has no kernels for.
  std::string subtitle = (report.scope.empty() ? std::string() : report.scope + " · ") +
                         sources_label(*report.registry) + " (PyTorch " + report.registry->torch_version() + ")";
  if (report.cpu_only && !report.not_compiled.empty())
    subtitle += "; the build has no kernels for " + join(report.not_compiled) + " (a CPU-only build)";
  MatrixPage page(MatrixPage::Kind::Coverage, "Dispatch key coverage", subtitle, keys);
  for (std::size_t i = 0; i < report.operators.size(); ++i) {
    const Operator& op = *report.operators[i];
    std::vector<int> cells;
    cells.reserve(keys.size());
    for (std::size_t j = 0; j < keys.size(); ++j)
      cells.push_back(page.state(cat, report.row(i, j), report.outcome(i, j), report.dependency(i, j)));
    page.add_row(op.name, "", op.schema ? op.schema->text : "", {cells});
  }
  page.set_implement(implement_json_of<json>(report, k_page_needs));
  return page.html();
}

}  // namespace dispatchctl
