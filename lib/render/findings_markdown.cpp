// `check --format markdown`: a PR comment (GitHub-flavoured markdown): a
// summary table, then one collapsible section per operator with its
// findings, each linking FILE#LLINE relative to the repository root.
#include <map>

#include "render/findings_render.h"
#include "util/join.h"

namespace dispatchctl {
namespace {

// Pipes and backticks would end a table cell or a code span early.
std::string cell(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '|') out += "\\|";
    else if (c == '\n') out += ' ';
    else out += c;
  }
  return out;
}

std::string link(const Location& loc, const std::string& repo_root) {
  std::string file = loc.file;
  if (!repo_root.empty() && file.rfind(repo_root + "/", 0) == 0) file = file.substr(repo_root.size() + 1);
  if (file.rfind("git:", 0) == 0) file = file.substr(file.find(':', 4) + 1);  // git:REV:PATH
  if (file.rfind("./", 0) == 0) file = file.substr(2);
  const std::string shown = file + (loc.line > 0 ? ":" + std::to_string(loc.line) : "");
  if (file.empty() || file.rfind("builtin:", 0) == 0 || file[0] == '/') return "`" + shown + "`";
  return "[" + shown + "](" + file + (loc.line > 0 ? "#L" + std::to_string(loc.line) : "") + ")";
}

const char* icon(Severity s) {
  switch (s) {
    case Severity::Error: return "error";
    case Severity::Warning: return "warning";
    case Severity::Note: return "note";
  }
  return "";
}

}  // namespace

std::string findings_markdown(const CheckResult& r, const std::string& repo_root) {
  size_t counts[3] = {0, 0, 0};
  for (const auto& f : r.findings) ++counts[static_cast<int>(f.severity)];
  std::string out = "### dispatchctl check\n\n";
  if (r.compared_to_base) {
    out += "| new | fixed | pre-existing | errors | warnings | notes | operators checked |\n";
    out += "|---:|---:|---:|---:|---:|---:|---:|\n";
    out += "| " + std::to_string(r.new_count) + " | " + std::to_string(r.fixed.size()) + " | " +
           std::to_string(r.existing_count) + " | ";
  } else {
    out += "| errors | warnings | notes | operators checked |\n|---:|---:|---:|---:|\n| ";
  }
  out += std::to_string(counts[2]) + " | " + std::to_string(counts[1]) + " | " + std::to_string(counts[0]) + " | " +
         std::to_string(r.operators_checked) + " |\n";
  if (r.compared_to_base && !r.not_loaded.empty())
    out += "\n**Not compared with the base:** " + join(r.not_loaded, ", ") +
           (r.not_loaded.size() == 1 ? " does" : " do") +
           " not load, so nothing is claimed fixed (the base's findings count as pre-existing).\n";
  if (r.findings.empty() && r.fixed.empty()) return out + "\nNo findings" + (r.compared_to_base ? " the change brings." : ".") + "\n";
  // Operators in order of their first finding; findings without one last.
  std::vector<std::string> order;
  std::map<std::string, std::vector<const Finding*>> by_op;
  for (const auto& f : r.findings) {
    auto& list = by_op[f.op];
    if (list.empty()) order.push_back(f.op);
    list.push_back(&f);
  }
  for (const auto& op : order) {
    const auto& list = by_op[op];
    size_t errors = 0;
    for (const Finding* f : list) errors += f->severity == Severity::Error;
    out += "\n<details" + std::string(errors ? " open" : "") + "><summary><code>" + (op.empty() ? "(no operator)" : op) +
           "</code>: " + std::to_string(list.size()) + (list.size() == 1 ? " finding" : " findings") +
           (errors ? ", " + std::to_string(errors) + (errors == 1 ? " error" : " errors") : "") + "</summary>\n\n";
    for (const Finding* f : list) {
      out += "- **" + std::string(icon(f->severity)) + "** `" + f->rule + "`" +
             (f->pre_existing ? " (pre-existing)" : "") + " at " + link(f->location, repo_root) + ": " +
             cell(f->message) + "\n";
      if (!f->details.empty()) out += "\n  ```\n  " + f->details + "\n  ```\n";
    }
    out += "\n</details>\n";
  }
  if (!r.fixed.empty()) {
    out += "\n<details><summary>Fixed by this change: " + std::to_string(r.fixed.size()) + "</summary>\n\n";
    for (const auto& f : r.fixed)
      out += "- `" + f.rule + "` " + (f.op.empty() ? "" : "`" + f.op + "` ") + cell(f.message) + "\n";
    out += "\n</details>\n";
  }
  return out;
}

}  // namespace dispatchctl
