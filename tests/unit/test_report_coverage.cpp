// The coverage model of `report` and its HTML page: outcome of every cell,
// per-key totals, default keys; every cell of the real 2.14.1 registry
// against PyTorch's own _dispatch_dump_table lines.
#include <doctest/doctest.h>

#include <functional>
#include <map>
#include <optional>

#include "load/load_registry.h"
#include "render/report_html.h"
#include "table/outcome.h"
#include "test_support.h"
#include "util/errors.h"
#include "util/file_io.h"

using namespace dispatchctl;

namespace {

const char* const k_small = R"({
  "dispatchctl_manifest": 1, "torch_version": "2.14.1",
  "fallbacks": [{"key": "PrivateUse1", "kernel": "registered at fb.cpp:1"},
                {"key": "AutocastPrivateUse1", "kernel": "registered at ac.cpp:1", "fallthrough": true}],
  "operators": [
    {"name": "t::direct", "schema": "t::direct(Tensor a) -> Tensor", "kernels": [
      {"key": "CPU", "kernel": "registered at cpu.cpp:1"},
      {"key": "Meta", "kernel": "registered at /src/m/meta.py:8"}]},
    {"name": "t::math", "schema": "t::math(Tensor a) -> Tensor", "kernels": [
      {"key": "CompositeImplicitAutograd", "kernel": "registered at math.cpp:1"},
      {"key": "SparseCPU", "kernel": "registered at sparse.cpp:1"}]},
    {"name": "t::odd", "schema": "t::odd(Tensor a) -> Tensor", "kernels": [
      {"key": "CPU", "kernel": "registered at </script><b>odd.cpp:1"}]}
  ]})";

Outcome at(const CoverageReport& r, const std::string& op, const std::string& key) {
  const Catalogue& cat = r.registry->catalogue();
  for (std::size_t i = 0; i < r.operators.size(); ++i)
    for (std::size_t j = 0; j < r.keys.size(); ++j)
      if (r.operators[i]->name == op && cat.name(r.keys[j]) == key) return r.outcome(i, j);
  FAIL("no cell " << op << " " << key);
  return Outcome::Missing;
}

// The outcome a line of PyTorch's _dispatch_dump_table means (no line:
// missing), given the debug texts of the operator's boxed-only kernels
// without a signature from generated VariableType code in its
// _dispatch_dump (torchgen's autogradNotImplementedFallback() registrations).
std::string outcome_of_pytorch_line(const std::string* line, const std::vector<std::string>& not_implemented = {}) {
  if (!line) return "missing";
  const auto colon = line->find(": ");
  const auto tag_at = line->rfind(" [");
  const std::string text = line->substr(colon + 2, tag_at - colon - 2);
  const std::string tag = line->substr(tag_at + 2, line->size() - tag_at - 3);
  if (tag == "ambiguous autogradother") return "ambiguous";
  if (tag == "backend fallback" && text.find("MetaFallbackKernel") != std::string::npos) return "raises";
  if (text.rfind("fallthrough ", 0) == 0) return "fallthrough";
  // 2.14.1's Autograd<backend> fallbacks are the autograd-not-implemented fallback (its profile says so).
  if (tag == "backend fallback" && text.find("VariableFallbackKernel") != std::string::npos)
    return "autograd_not_implemented";
  if (tag == "backend fallback") return "fallback";
  if (text.substr(0, text.rfind(':')).ends_with(".py")) return "python";
  for (const auto& debug : not_implemented)
    if (text == debug && tag == "autograd kernel") return "autograd_not_implemented";
  return tag == "kernel" ? "direct" : "composite";
}

// The outcome PyTorch's table line of `op` at `key` means, a generated
// composite followed to its callee (the registry's record of what torchgen's
// kernel calls, checked against real torchgen in test_torchgen_generated_calls).
std::string followed_outcome(const Registry& reg, const std::map<std::string, std::string>& golden,
                             const std::string& op, const std::string& key, int depth = 0) {
  const std::string& block = golden.at(op);
  std::string outcome = outcome_of_pytorch_line(nullptr);
  for (std::size_t at = 0; at < block.size();) {
    const auto end = block.find('\n', at);
    if (block.compare(at, key.size() + 2, key + ": ") == 0) {
      const std::string line = block.substr(at, end - at);
      outcome = outcome_of_pytorch_line(&line);
    }
    at = end + 1;
  }
  if (outcome != "composite" || depth > 8) return outcome;
  const Row row = compute_row(reg, *reg.find(op), *reg.catalogue().find(key));
  const GeneratedCall* call = row.kernel ? reg.generated_call(*row.kernel) : nullptr;
  if (!call) return outcome;
  const std::string callee = followed_outcome(reg, golden, std::string(call->callee), key, depth + 1);
  return callee == "direct" || callee == "composite" || callee == "fallback" || callee == "fallthrough"
             ? "composite"
         : callee == "python" || callee == "composite_unknown" ? "composite_unknown"
                                                                : "composite_fails";
}

}  // namespace

TEST_CASE("report: every outcome of a small registry, and per-key totals") {
  auto reg = test::registry_from_json(k_small);
  const auto r = build_coverage(*reg, {{"CPU", "Meta", "PrivateUse1", "AutocastPrivateUse1", "AutogradOther",
                                        "AutogradCPU", "Vulkan"}, {}});
  CHECK(at(r, "t::direct", "CPU") == Outcome::Direct);
  CHECK(at(r, "t::direct", "Meta") == Outcome::Python);
  CHECK(at(r, "t::direct", "PrivateUse1") == Outcome::Fallback);
  CHECK(at(r, "t::direct", "AutocastPrivateUse1") == Outcome::Fallthrough);
  CHECK(at(r, "t::direct", "AutogradCPU") == Outcome::Missing);
  CHECK(at(r, "t::math", "CPU") == Outcome::Composite);
  CHECK(at(r, "t::math", "AutogradOther") == Outcome::Ambiguous);
  CHECK(at(r, "t::math", "Vulkan") == Outcome::Composite);
  CHECK(at(r, "t::odd", "Vulkan") == Outcome::Missing);
  // CPU: two direct kernels and one composite, all working.
  CHECK(r.totals[0].by_outcome[static_cast<int>(Outcome::Direct)] == 2);
  CHECK(r.totals[0].by_outcome[static_cast<int>(Outcome::Composite)] == 1);
  CHECK(r.totals[0].working == 3);
  CHECK(r.totals[4].by_outcome[static_cast<int>(Outcome::Ambiguous)] == 1);
  CHECK(r.totals[4].working == 0);  // AutogradOther: ambiguous and missing rows do not work
}

TEST_CASE("report: default keys are the backends with kernels, Meta, and their Autograd keys") {
  auto reg = test::registry_from_json(k_small);
  std::vector<std::string> names;
  for (Key k : default_coverage_keys(*reg)) names.push_back(reg->catalogue().name(k));
  CHECK(names == std::vector<std::string>{"CPU", "Meta", "SparseCPU", "AutogradCPU", "AutogradMeta"});
}

TEST_CASE("report: a --key that is no table row, or an --op naming nothing, is bad input") {
  auto reg = test::registry_from_json(k_small);
  CHECK_THROWS_WITH_AS(build_coverage(*reg, {{"Meat"}, {}}), doctest::Contains("did you mean 'Meta'"), InputError);
  CHECK_THROWS_WITH_AS(build_coverage(*reg, {{"CompositeImplicitAutograd"}, {}}),
                       doctest::Contains("not a runtime key"), InputError);
  CHECK_THROWS_AS(build_coverage(*reg, {{}, {"t::dirct"}}), InputError);
}

TEST_CASE("report: the page is self-contained and registry text cannot end its script") {
  auto reg = test::registry_from_json(k_small);
  const std::string html = coverage_html(build_coverage(*reg, {}));
  auto count = [&](const std::string& needle) {
    std::size_t n = 0;
    for (auto at = html.find(needle); at != std::string::npos; at = html.find(needle, at + 1)) ++n;
    return n;
  };
  CHECK(count("</script>") == 2);  // the data block and the code
  CHECK(count("<b>") == 0);
  CHECK(html.find("odd.cpp:1") != std::string::npos);
  CHECK(count("src=") == 0);
  CHECK(count("http://") + count("https://") == 0);
  CHECK(count("<link") == 0);
}

// Per operator, the debug texts of its `:: (none) [ boxed ]` VariableType kernels in PyTorch's dump.
std::map<std::string, std::vector<std::string>> not_implemented_kernels(const std::string& version) {
  std::map<std::string, std::vector<std::string>> out;
  const std::string dump = read_input_file(std::string(DISPATCHCTL_SOURCE_DIR) + "/lib/builtin/data/torch-" + version +
                                           "/registry_state.txt.gz");
  for (const auto& [op, block] : test::split_blocks(dump))
    for (std::size_t at = 0; at < block.size();) {
      const auto end = block.find('\n', at);
      const std::string line = block.substr(at, end - at);
      at = end + 1;
      const auto sep = line.find(": ");
      if (line.ends_with(" :: (none) [ boxed ]") && line.find("/autograd/generated/VariableType") != std::string::npos)
        out[op].push_back(line.substr(sep + 2, line.size() - sep - 2 - std::string(" :: (none) [ boxed ]").size()));
    }
  return out;
}

TEST_CASE("report: every Meta, CPU and autograd cell of the real 2.14.1 registry agrees with PyTorch's table") {
  auto reg = load_registry({"builtin:2.14.1"});
  const auto r = build_coverage(*reg, {{"Meta", "CPU", "AutogradOther", "AutogradCPU"}, {}});
  const auto golden = test::split_blocks(test::read_test_data("torch-2.14.1/computed_tables.txt.gz"));
  const auto not_implemented = not_implemented_kernels("2.14.1");
  REQUIRE(r.operators.size() == golden.size());
  std::size_t checked = 0, by_calls = 0;
  // Through torchgen's generated composites too: their callee's row decides.
  std::function<bool(const Operator&, Key, int)> decided_by_calls_at = [&](const Operator& op, Key k, int depth) {
    const Row row = compute_row(*reg, op, k);
    if (!row.kernel || row.rule == Rule::BackendFallback || depth > 8) return false;
    if (recorded_calls_at(*reg, *row.kernel, k) != nullptr) return true;
    const GeneratedCall* call = reg->generated_call(*row.kernel);
    const Operator* callee = call ? reg->find(call->callee) : nullptr;
    return callee && callee != &op && decided_by_calls_at(*callee, k, depth + 1);
  };
  auto decided_by_calls = [&](const Operator& op, Key k) { return decided_by_calls_at(op, k, 0); };
  for (std::size_t i = 0; i < r.operators.size(); ++i) {
    const std::string& block = golden.at(r.operators[i]->name);
    for (std::size_t j = 0; j < r.keys.size(); ++j) {
      const std::string key = reg->catalogue().name(r.keys[j]);
      std::optional<std::string> line;
      for (std::size_t at = 0; at < block.size();) {
        const auto end = block.find('\n', at);
        if (block.compare(at, key.size() + 2, key + ": ") == 0) line = block.substr(at, end - at);
        at = end + 1;
      }
      INFO(r.operators[i]->name << " " << key);
      // A hand-written composite whose recorded calls hold here (or, at
      // AutogradCPU, at the CPU row below) is decided by what it calls, which
      // no table line says: the real calls of tests/composite_calls and
      // tests/trace_goldens check those cells.
      if (decided_by_calls(*r.operators[i], r.keys[j]) ||
          (key == "AutogradCPU" && decided_by_calls(*r.operators[i], *reg->catalogue().find("CPU")))) {
        ++by_calls;
        continue;
      }
      const auto ni = not_implemented.find(r.operators[i]->name);
      std::string want = outcome_of_pytorch_line(line ? &*line : nullptr,
                                                 ni == not_implemented.end() ? std::vector<std::string>{} : ni->second);
      // A generated composite (the registry's record of what torchgen's kernel
      // calls, tests/unit/test_torchgen_generated_calls.cpp): PyTorch's line of
      // the callee at the same key decides.
      if (want == "composite") want = followed_outcome(*reg, golden, std::string(r.operators[i]->name), key);
      // An autograd kernel that passes the call on (not a CompositeImplicitAutograd
      // decomposition): PyTorch's CPU row decides whether the call returns.
      const Row row = compute_row(*reg, *r.operators[i], r.keys[j]);
      if (key == "AutogradCPU" && (want == "composite" || want == "autograd_not_implemented") &&
          row.rule != Rule::CompositeImplicitAutograd) {
        const std::string below = followed_outcome(*reg, golden, std::string(r.operators[i]->name), "CPU");
        if (below == "missing" || below == "raises" || below == "ambiguous" || below == "composite_fails")
          want = "composite_fails";
        else if ((below == "python" || below == "composite_unknown") && want == "composite")
          want = "composite_unknown";
      }
      CHECK(std::string(outcome_id(r.outcome(i, j))) == want);
      ++checked;
    }
  }
  MESSAGE("cells compared with PyTorch's table: " << checked << ", decided by recorded calls: " << by_calls);
  CHECK(checked + by_calls == 3640 * 4);
  CHECK(checked > 3640 * 3);
}
