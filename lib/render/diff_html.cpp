#include "render/diff_html.h"

#include <algorithm>
#include <unordered_map>

#include "render/report_html.h"

namespace dispatchctl {
namespace {

// Columns: the keys with a change, in the new release's table order, then
// keys only the old release has.
std::vector<std::string> changed_keys(const DiffResult& result) {
  std::unordered_map<std::string, bool> changed;
  for (const auto& op : result.operators)
    for (const auto& row : op.rows) changed[row.key] = true;
  std::vector<std::string> keys;
  for (const Registry* reg : {result.new_registry, result.old_registry}) {
    const Catalogue& cat = reg->catalogue();
    for (Key k : cat.runtime_keys()) {
      auto it = changed.find(cat.name(k));
      if (it == changed.end() || !it->second) continue;
      keys.push_back(it->first);
      it->second = false;
    }
  }
  return keys;
}

}  // namespace

std::string diff_html(const DiffResult& result, const std::string& old_label, const std::string& new_label) {
  const Catalogue& before_cat = result.old_registry->catalogue();
  const Catalogue& after_cat = result.new_registry->catalogue();
  const std::vector<std::string> keys = changed_keys(result);
  std::unordered_map<std::string, std::size_t> column;
  for (std::size_t j = 0; j < keys.size(); ++j) column[keys[j]] = j;
  MatrixPage page(MatrixPage::Kind::Diff, "Dispatch table changes", old_label + " \u2192 " + new_label, keys);
  // Operators only one side has: listed by name, as their rows have no other side.
  std::vector<std::string> added, removed;
  for (const OperatorDiff& op : result.operators) {
    if (op.change == OperatorDiff::Change::Added) added.push_back(op.name);
    if (op.change == OperatorDiff::Change::Removed) removed.push_back(op.name);
  }
  page.set_operator_lists(added, removed);
  for (const OperatorDiff& op : result.operators) {
    if (op.rows.empty()) continue;  // added, removed, or registrations changed and no row did
    std::vector<int> before(keys.size(), -1), after(keys.size(), -1);
    for (const RowChange& change : op.rows) {
      const std::size_t j = column.at(change.key);
      // The one outcome model, as the coverage page: a generated composite is
      // coloured and labelled by what it calls ("composite; needs aten::addmm.out (missing)").
      before[j] = page.state(before_cat, change.before, change.before_outcome.outcome, change.before_outcome.needs);
      after[j] = page.state(after_cat, change.after, change.after_outcome.outcome, change.after_outcome.needs);
    }
    const std::string schema = op.schema_after ? *op.schema_after : op.schema_before ? *op.schema_before : "";
    page.add_row(op.name, change_name(op.change), schema, {before, after});
  }
  return page.html();
}

}  // namespace dispatchctl
