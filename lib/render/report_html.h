// The coverage page (`dispatchctl report`): one self-contained HTML file
// (inline CSS and JS, nothing fetched) that draws operators x keys from
// compact JSON embedded in the page, and the same model as JSON.
// MatrixPage is the page both report and `diff --format html` fill.
#pragma once

#include <string>
#include <unordered_map>
#include <vector>

#include <nlohmann/json.hpp>

#include "report/coverage.h"

namespace dispatchctl {

// Rows of cells; each cell shows one state (coverage) or two (diff: before,
// after). A state is an index from `state()`; -1 leaves the cell blank.
class MatrixPage {
 public:
  enum class Kind { Coverage, Diff };
  MatrixPage(Kind kind, std::string title, std::string subtitle, std::vector<std::string> keys);

  // A cell state: its outcome (followed: report's CoverageReport, diff's
  // sides), PyTorch's table line (without "KEY: "), the rule and registration
  // that filled it or what its kernel needs, and where that was loaded from.
  int state(const Catalogue& cat, const Row& row, Outcome outcome, const Dependency& needs);
  void add_row(const std::string& name, const std::string& note, const std::string& schema,
               const std::vector<std::vector<int>>& states);
  // Diff pages: the operators only one side has, listed above the matrix
  // (they have no before/after cells to draw).
  void set_operator_lists(const std::vector<std::string>& added, const std::vector<std::string>& removed);
  // Coverage pages: what to implement at each backend column (implement_json,
  // the first of each list, with "forward_total" and "backward_total").
  void set_implement(nlohmann::json implement);
  std::string html() const;

 private:
  int intern(const std::string& text);

  nlohmann::json doc_;
  std::unordered_map<std::string, int> strings_, states_;
};

std::string coverage_html(const CoverageReport& report);
// report.implement as JSON, the page's and `--format json`'s "implement":
// [{"key", "operators", "rows_needing", "backward_recorded", "forward": [{"op",
// "unblocks", "in_set"}], "backward": [...]}].
nlohmann::ordered_json implement_json(const CoverageReport& report);
// {"torch_version", "sources", "keys": [{"key", "operators", "working",
// "percent", "outcomes": {id: count}}], "operators": [{"name", "cells":
// [{"key", "outcome", "tag"?, "provider"?, "kernel"?}]}]}
std::string coverage_json_text(const CoverageReport& report);

// The page template: CSS and JS (report_page.cpp).
extern const char* const k_report_page_css;
extern const char* const k_report_page_js;

}  // namespace dispatchctl
