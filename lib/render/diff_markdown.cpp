// `diff --format markdown`: a PR comment of what behaves differently — a
// summary table, then one collapsible section per operator (its row groups in
// words, registrations added/removed with their file:line).
#include <string>

#include "render/diff_render.h"

namespace dispatchctl {
namespace {

std::string place(const Origin& origin) {
  std::string file(origin.file());
  if (file.empty()) return "";
  if (file.rfind("git:", 0) == 0 && file.find(':', 4) != std::string::npos) file = file.substr(file.find(':', 4) + 1);
  if (file.rfind("./", 0) == 0) file = file.substr(2);
  const std::string shown = file + (origin.line() > 0 ? ":" + std::to_string(origin.line()) : "");
  if (file[0] == '/' || file.rfind("builtin:", 0) == 0) return " (`" + shown + "`)";
  return " ([" + shown + "](" + file + (origin.line() > 0 ? "#L" + std::to_string(origin.line()) : "") + "))";
}

}  // namespace

std::string diff_markdown(const DiffResult& result, const DiffRenderOptions& options) {
  const DiffResult::Counts c = result.counts();
  std::string out = "### dispatchctl diff\n\n`" + options.old_label + "` → `" + options.new_label + "`\n\n";
  out += "| operators added | removed | changed | rows changed | registrations added | removed | fallbacks changed |\n";
  out += "|---:|---:|---:|---:|---:|---:|---:|\n";
  out += "| " + std::to_string(c.operators_added) + " | " + std::to_string(c.operators_removed) + " | " +
         std::to_string(c.operators_changed) + " | " + std::to_string(c.rows_changed) + " | " +
         std::to_string(c.registrations_added) + " | " + std::to_string(c.registrations_removed) + " | " +
         std::to_string(c.fallbacks_added + c.fallbacks_removed + c.fallbacks_changed) + " |\n";
  if (result.empty()) return out + "\nNo operator behaves differently.\n";
  for (const auto& f : result.fallbacks)
    out += "\n- backend fallback at `" + f.key + "` " +
           (f.change == FallbackChange::Change::Added     ? "added"
            : f.change == FallbackChange::Change::Removed ? "removed"
                                                          : "changed") +
           " (" + std::to_string(f.operators_affected) + " operators affected)";
  if (!result.fallbacks.empty()) out += "\n";
  if (options.summary_only) return out;
  for (const auto& op : result.operators) {
    out += "\n<details><summary><code>" + op.name + "</code> " + change_name(op.change);
    if (!op.rows.empty()) out += ": " + std::to_string(op.rows.size()) + (op.rows.size() == 1 ? " row" : " rows");
    out += "</summary>\n\n";
    if (op.schema_before && op.schema_after)
      out += "- schema `" + *op.schema_before + "` → `" + *op.schema_after + "`\n";
    for (const auto& g : op.groups) out += "- " + describe_group(op, g) + "\n";
    for (const auto& r : op.registrations)
      out += std::string("- ") + (r.added ? "added" : "removed") + " `" + r.key + "` kernel" +
             (r.kernel ? place(r.kernel->origin) : "") + "\n";
    out += "\n</details>\n";
  }
  return out;
}

}  // namespace dispatchctl
