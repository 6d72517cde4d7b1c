#include "verify/verify.h"

#include <algorithm>

#include "table/torch_text.h"
#include "table/table.h"
#include "util/errors.h"

namespace dispatchctl {

void read_recorded(const ManifestDocument& manifest, RecordedDumps& into) {
  auto recorded = manifest.doc.find("recorded");
  if (recorded == manifest.doc.end()) return;
  for (const char* kind : {"tables", "states"}) {
    auto part = recorded->find(kind);
    if (part == recorded->end()) continue;
    const std::string at = std::string("/recorded/") + kind;
    if (!part->is_object())
      throw InputError(manifest.source + ": " + at + ": expected an object {OPERATOR: TEXT}");
    auto& out = std::string_view(kind) == "tables" ? into.tables : into.states;
    for (const auto& [op, text] : part->items()) {
      if (!text.is_string())
        throw InputError(manifest.source + ": " + at + "/" + op + ": expected the text PyTorch printed");
      out[op] = text.get<std::string>();
    }
  }
}

namespace {
std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string::npos) end = text.size();
    out.push_back(text.substr(pos, end - pos));
    pos = end + 1;
  }
  return out;
}
}  // namespace

std::string unified_diff(const std::string& before, const std::string& after,
                         const std::string& before_label, const std::string& after_label) {
  const auto a = lines_of(before), b = lines_of(after);
  // LCS table: tables and states are a few hundred lines at most.
  std::vector<std::vector<int>> lcs(a.size() + 1, std::vector<int>(b.size() + 1, 0));
  for (size_t i = a.size(); i-- > 0;)
    for (size_t j = b.size(); j-- > 0;)
      lcs[i][j] = a[i] == b[j] ? lcs[i + 1][j + 1] + 1 : std::max(lcs[i + 1][j], lcs[i][j + 1]);
  struct Edit {
    char op;
    size_t ai, bi;
  };
  std::vector<Edit> edits;
  size_t i = 0, j = 0;
  while (i < a.size() || j < b.size()) {
    if (i < a.size() && j < b.size() && a[i] == b[j]) edits.push_back({' ', i++, j++});
    else if (i < a.size() && (j == b.size() || lcs[i + 1][j] >= lcs[i][j + 1])) edits.push_back({'-', i++, j});
    else edits.push_back({'+', i, j++});
  }
  std::string out = "--- " + before_label + "\n+++ " + after_label + "\n";
  constexpr size_t context = 3;
  size_t e = 0;
  while (e < edits.size()) {
    if (edits[e].op == ' ') {
      ++e;
      continue;
    }
    size_t start = e >= context ? e - context : 0, end = e;
    // Extend the hunk while changes are within 2*context lines of each other.
    for (size_t k = e; k < edits.size(); ++k)
      if (edits[k].op != ' ') end = k;
      else if (k - end > 2 * context) break;
    end = std::min(edits.size() - 1, end + context);
    size_t a_count = 0, b_count = 0;
    for (size_t k = start; k <= end; ++k) {
      a_count += edits[k].op != '+';
      b_count += edits[k].op != '-';
    }
    out += "@@ -" + std::to_string(edits[start].ai + 1) + "," + std::to_string(a_count) + " +" +
           std::to_string(edits[start].bi + 1) + "," + std::to_string(b_count) + " @@\n";
    for (size_t k = start; k <= end; ++k)
      out += std::string(1, edits[k].op) + (edits[k].op == '+' ? b[edits[k].bi] : a[edits[k].ai]) + "\n";
    e = end + 1;
  }
  return out;
}

VerifyResult verify_recorded(const Registry& registry, const RecordedDumps& recorded,
                             size_t max_differences) {
  VerifyResult result;
  const Catalogue& cat = registry.catalogue();
  auto compare = [&](const std::string& op, const char* kind, const std::string& expected,
                     const std::string& actual, size_t& identical) {
    if (actual == expected) return void(++identical);
    if (result.differences.size() < max_differences)
      result.differences.push_back({op, kind,
                                    unified_diff(expected, actual, op + " (recorded " + kind + ")",
                                                 op + " (computed " + kind + ")")});
  };
  for (const auto& [name, expected] : recorded.tables) {
    ++result.tables_total;
    const Operator* op = registry.find(name);
    if (!op) {
      result.missing.push_back(name);
      continue;
    }
    std::string actual;
    append_torch_table(actual, cat, compute_table(registry, *op));
    compare(name, "table", expected, actual, result.tables_identical);
  }
  for (const auto& [name, expected] : recorded.states) {
    ++result.states_total;
    const Operator* op = registry.find(name);
    if (!op) {
      if (!recorded.tables.count(name)) result.missing.push_back(name);
      continue;
    }
    std::string actual;
    append_torch_state(actual, cat, *op);
    compare(name, "state", expected, actual, result.states_identical);
  }
  return result;
}

}  // namespace dispatchctl
