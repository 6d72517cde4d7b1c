#include "render/report_summary.h"

#include <fmt/format.h>

#include "util/join.h"

namespace dispatchctl {

namespace {

std::string percent_text(std::size_t part, std::size_t whole) {
  return whole ? fmt::format("{:.1f}%", 100.0 * static_cast<double>(part) / static_cast<double>(whole)) : "0.0%";
}

std::string sources_text(const Registry& reg) {
  return reg.sources.empty() ? "builtin:" + reg.torch_version() : join(reg.sources, " + ");
}

// What the operators are: the set's label, or "every operator of the registry".
std::string scope_text(const CoverageReport& report) {
  if (!report.scope.empty()) return report.scope;
  return std::to_string(report.operators.size()) + " operators";
}

// A short scope for the badge: "core" for "the core opset of …", a file's stem otherwise.
std::string badge_scope(const CoverageReport& report) {
  const std::string& s = report.scope;
  if (s.rfind("the ", 0) == 0 && s.find(" opset of ") != std::string::npos) return s.substr(4, s.find(" opset of ") - 4);
  if (s.empty()) return "";
  std::string stem = s.substr(0, s.find(" ("));
  stem = stem.substr(stem.find_last_of('/') + 1);
  return stem.substr(0, stem.find('.'));
}

std::string code_list(const std::vector<const Operator*>& ops, std::size_t limit) {
  std::string out;
  for (std::size_t i = 0; i < ops.size() && i < limit; ++i) out += (i ? ", `" : "`") + std::string(ops[i]->name) + "`";
  if (ops.size() > limit) out += fmt::format(" and {} more", ops.size() - limit);
  return out;
}

// One needs list at the focus key: `OP`: N rows (the set's operators it unblocks).
void append_needs(std::string& out, std::string_view title, std::string_view what, const std::string& focus,
                  const std::vector<NeededAtKey>& needs, std::size_t limit) {
  if (needs.empty()) return;
  out += fmt::format("\n**{}** at {} ({}: a kernel for it unblocks the rows named):\n\n", title, focus, what);
  for (std::size_t i = 0; i < needs.size() && i < limit; ++i) {
    const NeededAtKey& n = needs[i];
    std::vector<const Operator*> others;
    for (const Operator* op : n.rows)
      if (op != n.op) others.push_back(op);
    out += fmt::format("{}. `{}`: {} row{}", i + 1, std::string(n.op->name), n.rows.size(), n.rows.size() == 1 ? "" : "s");
    if (!others.empty()) out += " (" + code_list(others, 4) + (n.in_set && others.size() < n.rows.size() ? " and itself" : "") + ")";
    out += n.in_set ? "\n" : " — not in the set itself\n";
  }
  if (needs.size() > limit)
    out += fmt::format("\n{} more; one operator's: `dispatchctl explain OP --key {}`\n", needs.size() - limit, focus);
}

std::string xml_escaped(std::string_view text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

}  // namespace

std::string coverage_markdown(const CoverageReport& report, const CoverageSummary& summary, std::size_t list_limit) {
  const Catalogue& cat = report.registry->catalogue();
  const Registry& reg = *report.registry;
  const std::string focus = summary.focus == k_undefined ? "" : cat.name(summary.focus);
  std::string out = "### " + (focus.empty() ? std::string("Dispatch key") : focus) + " coverage of " +
                    scope_text(report) + "\n\n";
  out += "`" + sources_text(reg) + "` (PyTorch " + reg.torch_version() + ")";
  if (!report.not_compiled.empty())
    out += "; the build has no kernels for " + join(report.not_compiled) + " (a CPU-only build)";
  out += "\n\n| key | works | forward only | unknown (Python) | fails | working |\n";
  out += "|---|---:|---:|---:|---:|---:|\n";
  for (const KeySummary& k : summary.keys)
    out += fmt::format("| {} | {} | {} | {} | {} | **{}** |\n", cat.name(k.key), k.works, k.forward_only, k.unknown,
                       k.fails, percent_text(k.works, k.operators));
  if (!focus.empty()) {
    if (summary.failing.empty()) {
      out += "\nNo operator fails at " + focus + ".\n";
    } else {
      out += fmt::format("\n**Fails at {}** ({}): {}\n", focus, summary.failing.size(),
                         code_list(summary.failing, list_limit));
    }
    if (summary.implement) {
      const KeyNeeds& needs = *summary.implement;
      append_needs(out, "Implement first", "forward", focus, needs.forward, list_limit / 2);
      append_needs(out, "Then for backward", "backward", focus, needs.backward, list_limit / 2);
    }
  }
  out += "\n<sub>dispatchctl report --format markdown; working: a C++ kernel, composite, fallback or fallthrough "
         "runs (README, What working means).</sub>\n";
  return out;
}

std::string coverage_badge_svg(const CoverageReport& report, const CoverageSummary& summary) {
  const Catalogue& cat = report.registry->catalogue();
  const KeySummary* focus = nullptr;
  for (const KeySummary& k : summary.keys)
    if (k.key == summary.focus) focus = &k;
  const std::string scope = badge_scope(report);
  const std::string label =
      (focus ? cat.name(focus->key) : std::string("coverage")) + (scope.empty() ? "" : " " + scope);
  const std::size_t works = focus ? focus->works : 0, total = focus ? focus->operators : 0;
  const double share = total ? static_cast<double>(works) / static_cast<double>(total) : 0.0;
  const std::string value = fmt::format("{}/{} ({:.0f}%)", works, total, 100.0 * share);
  // shields.io's palette: red below 50%, orange, yellow, green from 90%.
  const char* colour = share >= 0.9 ? "#4c1" : share >= 0.75 ? "#dfb317" : share >= 0.5 ? "#fe7d37" : "#e05d44";
  // Verdana 11px averages about 7 px a character; 10 px of padding each side.
  const int label_w = static_cast<int>(label.size()) * 7 + 10, value_w = static_cast<int>(value.size()) * 7 + 10;
  const int width = label_w + value_w;
  const std::string title = xml_escaped(label + ": " + value + " working");
  return fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"20\" role=\"img\" aria-label=\"{t}\">\n"
      "<title>{t}</title>\n"
      "<linearGradient id=\"s\" x2=\"0\" y2=\"100%\"><stop offset=\"0\" stop-color=\"#bbb\" stop-opacity=\".1\"/>"
      "<stop offset=\"1\" stop-opacity=\".1\"/></linearGradient>\n"
      "<clipPath id=\"r\"><rect width=\"{w}\" height=\"20\" rx=\"3\" fill=\"#fff\"/></clipPath>\n"
      "<g clip-path=\"url(#r)\"><rect width=\"{lw}\" height=\"20\" fill=\"#555\"/>"
      "<rect x=\"{lw}\" width=\"{vw}\" height=\"20\" fill=\"{c}\"/><rect width=\"{w}\" height=\"20\" fill=\"url(#s)\"/></g>\n"
      "<g fill=\"#fff\" text-anchor=\"middle\" font-family=\"Verdana,Geneva,DejaVu Sans,sans-serif\" font-size=\"11\">"
      "<text id=\"label\" x=\"{lx}\" y=\"14\">{l}</text><text id=\"value\" x=\"{vx}\" y=\"14\">{v}</text></g>\n"
      "</svg>\n",
      fmt::arg("w", width), fmt::arg("t", title), fmt::arg("lw", label_w), fmt::arg("vw", value_w),
      fmt::arg("c", colour), fmt::arg("lx", label_w / 2), fmt::arg("vx", label_w + value_w / 2),
      fmt::arg("l", xml_escaped(label)), fmt::arg("v", xml_escaped(value)));
}

}  // namespace dispatchctl
