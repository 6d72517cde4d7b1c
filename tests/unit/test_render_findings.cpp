// Findings renderers: text and GitHub lines exactly, SARIF against the
// structure the 2.1.0 schema requires (sarif-schema-2.1.0.json: log needs
// version + runs; run needs tool; tool needs driver; driver needs name;
// result needs message; message needs text or id; region lines >= 1).
#include <doctest/doctest.h>

#include "check/check.h"
#include "render/findings_render.h"

using namespace dispatchctl;

namespace {
CheckResult sample() {
  CheckResult r;
  r.torch_version = "2.14.1";
  r.sources = {"ops.json"};
  r.operators_checked = 2;
  Finding a;
  a.rule = "kernel-override";
  a.severity = Severity::Warning;
  a.message = "the CPU kernel of x::y overrides, 100%";
  a.details = "line one\nline two";
  a.location = {"ops.json", "/operators/0/kernels/1", 12, 9};
  a.op = "x::y";
  a.key = "CPU";
  Finding b;
  b.rule = "load-error";
  b.severity = Severity::Error;
  b.message = "cannot read, really: no such file";
  b.location = {"dir,x/missing.json", "", 0, 0};
  r.findings = {a, b};
  return r;
}
}  // namespace

TEST_CASE("findings: text is file:line:col: severity: message [rule-id]") {
  CHECK(findings_text(sample()) ==
        "ops.json:12:9: warning: the CPU kernel of x::y overrides, 100% [kernel-override]\n"
        "    | line one\n"
        "    | line two\n"
        "dir,x/missing.json: error: cannot read, really: no such file [load-error]\n"
        "1 error, 1 warning, 0 notes in 2 operators\n");
}

TEST_CASE("findings: detail lines wrap under the | gutter; the FILE:LINE:COL line stays whole") {
  CheckResult r = sample();
  r.findings[0].details = "all 34: runs math kernel stale_math; table shows missing";
  CHECK(findings_text(r, 40) ==
        "ops.json:12:9: warning: the CPU kernel of x::y overrides, 100% [kernel-override]\n"
        "    | all 34: runs math kernel\n"
        "    |   stale_math; table shows missing\n"
        "dir,x/missing.json: error: cannot read, really: no such file [load-error]\n"
        "1 error, 1 warning, 0 notes in 2 operators\n");
}

TEST_CASE("findings: GitHub workflow commands escape data and properties") {
  CHECK(findings_github(sample()) ==
        "::warning file=ops.json,line=12,col=9,title=kernel-override::the CPU kernel of x::y "
        "overrides, 100%25%0Aline one%0Aline two\n"
        "::error file=dir%2Cx/missing.json,title=load-error::cannot read, really: no such file\n");
}

TEST_CASE("findings: SARIF 2.1.0 structure") {
  const auto log = findings_sarif(sample(), "0.1.0");
  CHECK(log["version"] == "2.1.0");
  CHECK(log["$schema"].get<std::string>().find("sarif") != std::string::npos);
  REQUIRE(log["runs"].is_array());
  REQUIRE(log["runs"].size() == 1);
  const auto& run = log["runs"][0];
  const auto& driver = run["tool"]["driver"];
  CHECK(driver["name"] == "dispatchctl");
  REQUIRE(driver["rules"].is_array());
  // Every rule of the catalogue, each with an id and a short description.
  REQUIRE(driver["rules"].size() == check_rules().size());
  for (size_t i = 0; i < check_rules().size(); ++i) {
    CHECK(driver["rules"][i]["id"] == std::string(check_rules()[i].id));
    CHECK(driver["rules"][i]["shortDescription"]["text"].is_string());
    const std::string level = driver["rules"][i]["defaultConfiguration"]["level"];
    CHECK((level == "note" || level == "warning" || level == "error"));
  }
  REQUIRE(run["results"].size() == 2);
  for (const auto& result : run["results"]) {
    REQUIRE(result["message"]["text"].is_string());
    const std::string id = result["ruleId"];
    const int index = result["ruleIndex"];
    CHECK(driver["rules"][index]["id"] == id);
    const std::string level = result["level"];
    CHECK((level == "note" || level == "warning" || level == "error" || level == "none"));
    REQUIRE(result["locations"].size() == 1);
    const auto& physical = result["locations"][0]["physicalLocation"];
    CHECK(physical["artifactLocation"]["uri"].is_string());
    if (physical.contains("region")) CHECK(physical["region"]["startLine"].get<int>() >= 1);
  }
  const auto& first = run["results"][0]["locations"][0]["physicalLocation"];
  CHECK(first["artifactLocation"]["uri"] == "ops.json");
  CHECK(first["artifactLocation"]["uriBaseId"] == "%SRCROOT%");
  CHECK(first["region"]["startLine"] == 12);
  CHECK(first["region"]["startColumn"] == 9);
  CHECK_FALSE(run["results"][1]["locations"][0]["physicalLocation"].contains("region"));
}
