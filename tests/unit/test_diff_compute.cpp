// diff: expected values come from the spec (docs/dispatch-semantics.md §2, §3.2)
// and the table computation, never from diff's own output.
#include <doctest/doctest.h>

#include <regex>
#include <set>
#include <sstream>

#include "diff/diff.h"
#include "load/load_registry.h"
#include "render/diff_render.h"
#include "test_support.h"
#include "util/errors.h"

using namespace dispatchctl;

namespace {
std::string diff_manifest(const std::string& name) {
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
  auto after = load_registry({"builtin:2.14.1", diff_manifest("add_cea_to_cia_op.json")});
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
  auto before = load_registry({diff_manifest("small_old.json")});
  auto after = load_registry({diff_manifest("small_new.json")});
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
  auto before = load_registry({diff_manifest("small_old.json")});
  auto after = load_registry({diff_manifest("small_new.json")});
  const DiffResult r = diff_registries(*before, *after);
  const std::string text = diff_text(r, {false, "old.json", "new.json"});
  const auto shape = text.find("myops::kept: a direct kernel now fills 1 key (CPU) that was math kernel\n"
                               "myops::kept: the backend fallback now fills 1 key (AutogradCPU) that was math kernel\n");
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
  // --summary is honoured in JSON: operators keep their change groups, not their rows.
  const auto brief = diff_json(r, {true, "old.json", "new.json"});
  CHECK(brief["operators"][2]["groups"].size() == 2);
  CHECK_FALSE(brief["operators"][2].contains("rows"));
}

// --- 1.13.1 -> 2.14.1, against the tables real PyTorch printed -------------

namespace {

using Table = std::map<std::string, std::string>;  // key -> "debug [tag]"

std::map<std::string, Table> real_tables(const std::string& version) {
  std::map<std::string, Table> out;
  for (const auto& [op, block] : test::split_blocks(test::read_test_data("torch-" + version + "/computed_tables.txt.gz"))) {
    std::istringstream lines(block);
    for (std::string line; std::getline(lines, line);) {
      const auto colon = line.find(": ");
      out[op][line.substr(0, colon)] = line.substr(colon + 2);
    }
  }
  return out;
}

// The feature's definition, written independently of the code: a row changed
// when its text differs once ":LINE" and the "_N" of generated shards are
// dropped; a 1.13 Python kernel ("/dev/null") matches any Python kernel.
std::string without_locations(const std::string& line) {
  static const std::regex shard("_[0-9]+\\.cpp"), number(":[0-9]+( |$)");
  return std::regex_replace(std::regex_replace(line, shard, ".cpp"), number, "$1");
}

bool same_real_row(const std::string& a, const std::string& b) {
  if (without_locations(a) == without_locations(b)) return true;
  auto tag = [](const std::string& l) { return l.substr(l.rfind(" [")); };
  auto python = [](const std::string& l) { return l.find(".py:") != std::string::npos || l.find("/dev/null") != std::string::npos; };
  const bool unknown = a.find("/dev/null") != std::string::npos || b.find("/dev/null") != std::string::npos;
  return unknown && python(a) && python(b) && tag(a) == tag(b);
}

bool fallback_or_absent(const std::string& line) {
  return line.empty() || (line.size() >= 18 && line.compare(line.size() - 18, 18, "[backend fallback]") == 0);
}

struct ReleaseDiff {
  std::unique_ptr<Registry> old_registry = load_registry({"builtin:1.13.1"});
  std::unique_ptr<Registry> new_registry = load_registry({"builtin:2.14.1"});
  DiffResult result = diff_registries(*old_registry, *new_registry);
};

const ReleaseDiff& release_diff() {
  static const ReleaseDiff d;
  return d;
}

}  // namespace

TEST_CASE("diff 1.13.1 -> 2.14.1: exactly the rows whose real tables differ beyond file:line") {
  const auto before = real_tables("1.13.1");
  const auto after = real_tables("2.14.1");
  const DiffResult& r = release_diff().result;
  std::set<std::string> only_old(r.keys_only_old.begin(), r.keys_only_old.end());
  std::set<std::string> only_new(r.keys_only_new.begin(), r.keys_only_new.end());
  std::set<std::pair<std::string, std::string>> expected, reported;
  for (const auto& [op, old_table] : before) {
    auto it = after.find(op);
    if (it == after.end()) continue;
    std::set<std::string> keys;
    for (const auto& [k, _] : old_table) keys.insert(k);
    for (const auto& [k, _] : it->second) keys.insert(k);
    for (const auto& k : keys) {
      if (only_old.count(k) || only_new.count(k)) continue;
      const std::string a = old_table.count(k) ? old_table.at(k) : "";
      const std::string b = it->second.count(k) ? it->second.at(k) : "";
      if (same_real_row(a, b) || (fallback_or_absent(a) && fallback_or_absent(b))) continue;
      expected.insert({op, k});
    }
  }
  for (const auto& op : r.operators)
    for (const auto& row : op.rows) reported.insert({op.name, row.key});
  CHECK(reported.size() == expected.size());
  CHECK(reported == expected);
  // Not "every common operator changed" (3,124 did when file:line counted).
  CHECK(r.counts().operators_changed < 2500);
}

TEST_CASE("diff 1.13.1 -> 2.14.1: a Meta kernel moving from C++ to Python is visible") {
  const DiffResult& r = release_diff().result;
  auto op = std::find_if(r.operators.begin(), r.operators.end(),
                         [](const OperatorDiff& d) { return d.name == "aten::__ilshift__.Scalar"; });
  REQUIRE(op != r.operators.end());
  bool found = false;
  for (const auto& g : op->groups) {
    if (op->rows[g.rows.front()].key != "Meta") continue;
    found = true;
    CHECK(g.before.language == KernelLanguage::Cpp);
    CHECK(g.after.language == KernelLanguage::Python);
    CHECK(describe_group(*op, g) == "1 key (Meta) changed kernel from C++ kernel to python kernel (still kernel)");
  }
  CHECK(found);
  // The per-key summary counts them: 628 Meta rows went from RegisterMeta.cpp to _meta_registrations.py.
  size_t meta_cpp_to_python = 0;
  for (const auto& t : r.transitions())
    if (t.key == "Meta" && t.before.rule == Rule::Direct && t.after.rule == Rule::Direct &&
        t.before.language == KernelLanguage::Cpp && t.after.language == KernelLanguage::Python)
      meta_cpp_to_python = t.rows;
  CHECK(meta_cpp_to_python == 628);
}

TEST_CASE("diff 1.13.1 -> 2.14.1: fallbacks change once, keys of one release are listed, not compared") {
  const DiffResult& r = release_diff().result;
  auto fallback = [&](const std::string& key) -> const FallbackChange* {
    for (const auto& fb : r.fallbacks)
      if (fb.key == key) return &fb;
    return nullptr;
  };
  // §6/§8: 1.13's autograd fallbacks are fallthroughs, 2.x's are real kernels.
  const FallbackChange* autograd = fallback("AutogradCPU");
  REQUIRE(autograd);
  CHECK(autograd->change == FallbackChange::Change::Changed);
  CHECK(autograd->before->fallthrough);
  CHECK_FALSE(autograd->after->fallthrough);
  size_t autograd_entries = 0;
  for (const auto& fb : r.fallbacks) autograd_entries += fb.key == "AutogradCPU";
  CHECK(autograd_entries == 1);
  // The 2.x Meta fallback is new; it fills the Meta row of every common operator
  // whose real 2.14.1 Meta row is [backend fallback] and whose 1.13.1 row was missing.
  const auto after = real_tables("2.14.1");
  const auto before = real_tables("1.13.1");
  size_t meta_fallback_rows = 0;
  for (const auto& [op, table] : after)
    if (before.count(op) && !before.at(op).count("Meta") && table.count("Meta") &&
        fallback_or_absent(table.at("Meta")))
      ++meta_fallback_rows;
  const FallbackChange* meta = fallback("Meta");
  REQUIRE(meta);
  CHECK(meta->change == FallbackChange::Change::Added);
  CHECK(meta->operators_affected == meta_fallback_rows);
  // Keys only one release has (keys.txt of each release): never "now has no kernel".
  auto contains = [](const std::vector<std::string>& v, const std::string& k) {
    return std::find(v.begin(), v.end(), k) != v.end();
  };
  CHECK(contains(r.keys_only_new, "MTIA"));
  CHECK(contains(r.keys_only_old, "Named"));
  for (const auto& op : r.operators)
    for (const auto& row : op.rows) CHECK_FALSE((row.key == "MTIA" || row.key == "Named"));
}

TEST_CASE("diff 1.13.1 -> 2.14.1: the summary fits two screens at 80 columns; --locations keeps file:line") {
  const DiffResult& r = release_diff().result;
  const std::string text = diff_text(r, {true, "builtin:1.13.1", "builtin:2.14.1"});
  size_t lines = 0, widest = 0;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line); ++lines) widest = std::max(widest, line.size());
  CHECK(lines <= 100);
  CHECK(widest <= 80);
  CHECK(text.find("changed Autograd{CPU,CUDA,HPU,Lazy,MPS} AutogradOther") != std::string::npos);

  // aten::add.Tensor's CPU kernel moved RegisterCPU.cpp:N -> RegisterCPU_0.cpp:M (real tables).
  const auto& d = release_diff();
  const DiffResult exact = diff_registries(*d.old_registry, *d.new_registry, {{"aten::add.Tensor"}, {"CPU"}, true});
  REQUIRE(exact.operators.size() == 1);
  CHECK(exact.operators[0].rows.size() == 1);
  const DiffResult by_identity = diff_registries(*d.old_registry, *d.new_registry, {{"aten::add.Tensor"}, {"CPU"}});
  CHECK(by_identity.operators.empty());
}

TEST_CASE("diff: a row whose only change is the fallthrough flag is a change") {
  // The same kernel text at CPU, once a fallthrough: a call skips the key in
  // one registry and runs the kernel in the other (§3.1), so the row differs.
  auto manifest_with = [](bool fallthrough) {
    return test::registry_from_json(std::string(R"({"dispatchctl_manifest": 1, "torch_version": "2.14.1",
        "fallbacks": [{"key": "PrivateUse1", "kernel": "pu1_fallback", "fallthrough": )") +
                                    (fallthrough ? "true" : "false") + R"(}],
        "operators": [{"name": "myops::f", "schema": "myops::f(Tensor x) -> Tensor",
          "kernels": [{"key": "CPU", "kernel": "f_cpu", "fallthrough": )" + (fallthrough ? "true" : "false") +
                                    R"(}]}]})");
  };
  auto before = manifest_with(false);
  auto after = manifest_with(true);
  const DiffResult r = diff_registries(*before, *after);
  REQUIRE(r.operators.size() == 1);
  const OperatorDiff& op = r.operators[0];
  bool cpu_row = false;
  for (const auto& row : op.rows)
    if (row.key == "CPU") {
      cpu_row = true;
      CHECK_FALSE(row.before.fallthrough());
      CHECK(row.after.fallthrough());
    }
  CHECK(cpu_row);
  REQUIRE(r.fallbacks.size() == 1);
  CHECK(r.fallbacks[0].key == "PrivateUse1");
}
