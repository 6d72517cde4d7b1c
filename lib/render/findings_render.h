// Renderers for `check` findings: compiler-style text, JSON, SARIF 2.1.0
// (code-scanning UIs) and GitHub workflow commands. They never print.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "check/check.h"

namespace dispatchctl {

// file:line:col: severity: message [rule-id], details indented below.
// FILE:LINE:COL lines stay whole (editors parse them); detail lines wrap to
// `width` under a "    | " gutter (0: never).
std::string findings_text(const CheckResult& result, size_t width = 0);
nlohmann::ordered_json findings_json(const CheckResult& result);
// SARIF 2.1.0: one run, the tool's rule table, one result per finding.
nlohmann::ordered_json findings_sarif(const CheckResult& result, const std::string& tool_version);
// ::error file=F,line=L,col=C,title=RULE::message (escaped as GitHub requires).
std::string findings_github(const CheckResult& result);
// GitHub-flavoured markdown for a PR comment: summary table, one collapsible
// section per operator, FILE#LLINE links relative to `repo_root` (a prefix
// stripped from absolute paths; "" keeps the paths as given).
std::string findings_markdown(const CheckResult& result, const std::string& repo_root);
// "N new, M fixed, K pre-existing" (check --base).
std::string base_summary(const CheckResult& result);
// --list-checks.
std::string rules_text();

}  // namespace dispatchctl
