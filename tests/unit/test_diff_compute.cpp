// diff: expected values come from the spec (dispatch-semantics.md §2, §3.2)
// and the table computation, never from diff's own output.
#include <doctest/doctest.h>

#include <set>

#include "diff/diff.h"
#include "registry/sources.h"
#include "render/diff_render.h"
#include "test_support.h"
#include "util/errors.h"

using namespace dispatchctl;

namespace {
std::string manifest(const std::string& name) {
  return std::string(DISPATCHCTL_SOURCE_DIR) + "/tests/manifests/diff/" + name;
}
}  // namespace

TEST_CASE("diff: a registry against itself is empty") {
  auto a = load_registry({"builtin:2.14.1"});
  auto b = load_registry({"builtin:2.14.1"});
  const DiffResult r = diff_registries(*a, *b);
  CHECK(r.empty());
  CHECK(r.operators.empty());
}

TEST_CASE("diff: one CompositeExplicitAutograd kernel on a CIA-only operator flips exactly the rows compute_row says") {
  auto before = load_registry({"builtin:2.14.1"});
  auto after = load_registry({"builtin:2.14.1", manifest("add_cea_to_cia_op.json")});
  const DiffResult r = diff_registries(*before, *after);
  REQUIRE(r.operators.size() == 1);
  const OperatorDiff& op = r.operators[0];
  CHECK(op.name == "aten::get_gradients");
  CHECK(op.change == OperatorDiff::Change::Changed);
  REQUIRE(op.registrations.size() == 1);
  CHECK(op.registrations[0].added);
  CHECK(op.registrations[0].key == "CompositeExplicitAutograd");

  // Independently: every runtime key whose computed row differs.
  const Catalogue& cat = before->catalogue();
  const Operator& x = *before->find("aten::get_gradients");
  const Operator& y = *after->find("aten::get_gradients");
  std::set<std::string> expected;
  for (Key k : cat.runtime_keys()) {
    const Row a = compute_row(*before, x, k), b = compute_row(*after, y, k);
    if (a.rule != b.rule || a.debug() != b.debug()) expected.insert(cat.name(k));
  }
  std::set<std::string> reported;
  for (const auto& row : op.rows) reported.insert(row.key);
  CHECK(reported == expected);
  // §2: the CIA set has 103 runtime keys, plus Undefined; all of them lose the math kernel.
  CHECK(reported.size() == 104);
  // §2: 69 CEA keys + Undefined now get the default backend kernel.
  size_t to_cea = 0;
  for (const auto& row : op.rows) to_cea += row.after.rule == Rule::CompositeExplicitAutograd;
  CHECK(to_cea == 70);
  bool shape_found = false;
  for (const auto& g : op.groups)
    shape_found = shape_found || describe_group(op, g) == "CompositeExplicitAutograd now fills 70 keys that were math kernel";
  CHECK(shape_found);
}

TEST_CASE("diff: operators and registrations added and removed, filters") {
  auto before = load_registry({manifest("small_old.json")});
  auto after = load_registry({manifest("small_new.json")});
  const DiffResult r = diff_registries(*before, *after);
  REQUIRE(r.operators.size() == 3);
  CHECK(r.operators[0].name == "myops::fresh");
  CHECK(r.operators[0].change == OperatorDiff::Change::Added);
  CHECK(r.operators[1].name == "myops::gone");
  CHECK(r.operators[1].change == OperatorDiff::Change::Removed);
  CHECK(r.operators[2].name == "myops::kept");
  // §3.2: CPU + CIA -> CPU is a direct kernel, AutogradCPU loses the math
  // kernel to the AutogradCPU fallback.
  std::set<std::string> keys;
  for (const auto& row : r.operators[2].rows) keys.insert(row.key);
  CHECK(keys == std::set<std::string>{"CPU", "AutogradCPU"});
  const auto counts = r.counts();
  CHECK(counts.operators_added == 1);
  CHECK(counts.operators_removed == 1);
  CHECK(counts.registrations_added == 2);
  CHECK(counts.registrations_removed == 1);

  const DiffResult only_key = diff_registries(*before, *after, {{"myops::kept"}, {"AutogradCPU"}});
  REQUIRE(only_key.operators.size() == 1);
  REQUIRE(only_key.operators[0].rows.size() == 1);
  CHECK(only_key.operators[0].rows[0].after.rule == Rule::BackendFallback);
  CHECK(only_key.operators[0].registrations.empty());  // a CPU kernel does not sit at AutogradCPU

  CHECK_THROWS_AS(diff_registries(*before, *after, {{}, {"AutogradCPUU"}}), InputError);
  CHECK_THROWS_AS(diff_registries(*before, *after, {{"myops::kep"}, {}}), InputError);
}

TEST_CASE("diff: text shows the shape first, then details; JSON counts match") {
  auto before = load_registry({manifest("small_old.json")});
  auto after = load_registry({manifest("small_new.json")});
  const DiffResult r = diff_registries(*before, *after);
  const std::string text = diff_text(r, {false, "old.json", "new.json"});
  const auto shape = text.find("myops::kept: a direct kernel now fills 1 key that was math kernel\n"
                               "myops::kept: the backend fallback now fills 1 key that was math kernel\n");
  CHECK(shape != std::string::npos);
  CHECK(text.rfind("--- old.json\n+++ new.json\n", 0) == 0);
  CHECK(text.find("myops::fresh: added (1 registration)") != std::string::npos);
  const auto details = text.find("\nmyops::kept\n");
  CHECK(details != std::string::npos);
  CHECK(shape < details);
  const std::string summary = diff_text(r, {true, "old.json", "new.json"});
  CHECK(summary.find("\nmyops::kept\n") == std::string::npos);
  const auto j = diff_json(r, {false, "old.json", "new.json"});
  CHECK(j["equal"] == false);
  CHECK(j["summary"]["operators_added"] == 1);
  CHECK(j["operators"][2]["rows"].size() == 2);
}
