// check --base: findings compared by identity (rule, operator, key, kind), never by line.
#include <doctest/doctest.h>

#include "check/check.h"
#include "util/errors.h"

using namespace dispatchctl;

namespace {

Finding finding(std::string rule, std::string op, int line, std::string kind = "", Severity s = Severity::Error) {
  Finding f;
  f.rule = std::move(rule);
  f.op = std::move(op);
  f.kind = std::move(kind);
  f.severity = s;
  f.location = {"native_functions.yaml", "", line, 0};
  return f;
}

}  // namespace

TEST_CASE("check --base: a moved line is the same finding; new, fixed and pre-existing are counted") {
  CheckResult base, now;
  base.findings = {finding("required-key", "aten::a", 10), finding("torchgen-refusal", "aten::b", 20, "lone-out"),
                   finding("required-key", "aten::gone", 30)};
  now.findings = {finding("required-key", "aten::a", 12), finding("torchgen-refusal", "aten::b", 22, "lone-out"),
                  finding("torchgen-refusal", "aten::b", 22, "view-without-copy")};
  compare_to_base(now, std::move(base), false);
  CHECK(now.compared_to_base);
  CHECK(now.new_count == 1);
  CHECK(now.existing_count == 2);
  REQUIRE(now.fixed.size() == 1);
  CHECK(now.fixed[0].op == "aten::gone");
  REQUIRE(now.findings.size() == 1);
  CHECK(now.findings[0].kind == "view-without-copy");
  CHECK(now.has_errors());
}

TEST_CASE("check --base: pre-existing findings are listed with --show-existing but never fail the check") {
  CheckResult base, now;
  base.findings = {finding("autogradother-ambiguity", "aten::max_pool2d", 1)};
  now.findings = {finding("autogradother-ambiguity", "aten::max_pool2d", 5)};
  compare_to_base(now, std::move(base), true);
  REQUIRE(now.findings.size() == 1);
  CHECK(now.findings[0].pre_existing);
  CHECK_FALSE(now.has_errors());
}

TEST_CASE("check --base: a second copy of an old problem is new (identities pair one to one)") {
  CheckResult base, now;
  base.findings = {finding("kernel-override", "aten::x", 1)};
  now.findings = {finding("kernel-override", "aten::x", 1), finding("kernel-override", "aten::x", 2)};
  compare_to_base(now, std::move(base), false);
  CHECK(now.new_count == 1);
  CHECK(now.existing_count == 1);
}

TEST_CASE("check --base: a change that did not load claims nothing fixed; the base's findings stay pre-existing") {
  CheckResult base, now;
  base.findings = {finding("autogradother-ambiguity", "aten::max_pool2d", 1),
                   finding("cia-with-backend-kernel", "aten::linear", 2, "", Severity::Warning)};
  now.findings = {finding("torchgen-refusal", "aten::logit", 5366, "illegal-tag")};
  now.not_loaded = {"torchgen:y"};
  compare_to_base(now, std::move(base), false);
  CHECK(now.new_count == 1);
  CHECK(now.fixed.empty());
  CHECK(now.existing_count == 2);
  REQUIRE(now.findings.size() == 1);
  CHECK(now.has_errors());
  CheckResult listed, base_again;
  base_again.findings = {finding("autogradother-ambiguity", "aten::max_pool2d", 1)};
  listed.not_loaded = {"torchgen:y"};
  compare_to_base(listed, std::move(base_again), true);
  REQUIRE(listed.findings.size() == 1);
  CHECK(listed.findings[0].pre_existing);
  CHECK_FALSE(listed.has_errors());
}

TEST_CASE("check --base: a PR that fixes one problem and brings another is 1 new, also without operator or key") {
  CheckResult base, now;
  Finding old_problem = finding("load-error", "", 3), new_problem = finding("load-error", "", 3);
  old_problem.message = "x.json:3: unknown field \"kernal\"";
  new_problem.message = "x.json:3: unknown key \"CUPA\"";
  base.findings = {old_problem, finding("signature-mismatch", "aten::mm", 4)};
  now.findings = {new_problem, finding("signature-mismatch", "aten::mm", 4)};
  now.findings[1].key = "PrivateUse1";  // another key: another finding
  compare_to_base(now, std::move(base), false);
  CHECK(now.new_count == 2);
  CHECK(now.fixed.size() == 2);
  CHECK(now.has_errors());
}

TEST_CASE("check --base: a base of another release is refused with one line") {
  CheckOptions options;
  options.base = {"builtin:2.6.0+cuda"};
  try {
    (void)run_check({"builtin:2.14.1"}, options);
    FAIL("no InputError");
  } catch (const InputError& e) {
    const std::string what = e.what();
    CHECK(what.find("--base builtin:2.6.0+cuda: PyTorch 2.6.0") == 0);
    CHECK(what.find('\n') == std::string::npos);
  }
}
