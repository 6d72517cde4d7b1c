// check: each rule on a manifest that triggers it, and its absence.
// Expected values come from the spec (docs/dispatch-semantics.md) and real data.
#include <doctest/doctest.h>

#include <algorithm>

#include "check/check.h"
#include "util/errors.h"
#include "util/file_io.h"

using namespace dispatchctl;

namespace {
std::string manifest(const std::string& name) {
  return std::string(DISPATCHCTL_SOURCE_DIR) + "/tests/manifests/check/" + name;
}

std::vector<Finding> of_rule(const CheckResult& r, const std::string& rule) {
  std::vector<Finding> out;
  for (const auto& f : r.findings)
    if (f.rule == rule) out.push_back(f);
  return out;
}
}  // namespace

TEST_CASE("check: a clean manifest has no finding") {
  for (const char* name : {"clean.json", "cia_only.json"}) {
    CAPTURE(name);
    const CheckResult r = run_check({manifest(name)}, {});
    CHECK(r.findings.empty());
    CHECK_FALSE(r.has_errors());
  }
}

TEST_CASE("check: dangling-impl points at the kernel's line") {
  const CheckResult r = run_check({manifest("dangling_impl.json")}, {});
  REQUIRE(r.findings.size() == 1);
  CHECK(r.findings[0].rule == "dangling-impl");
  CHECK(r.findings[0].severity == Severity::Warning);
  CHECK(r.findings[0].location.line == 9);
  CHECK(r.findings[0].location.column == 9);
}

TEST_CASE("check: duplicate-definition, duplicate-fallback and signature-mismatch are load findings") {
  CheckResult r = run_check({manifest("duplicate_definition.json")}, {});
  REQUIRE(of_rule(r, "duplicate-definition").size() == 1);
  CHECK(of_rule(r, "duplicate-definition")[0].location.line == 7);
  CHECK(r.has_errors());
  r = run_check({manifest("duplicate_fallback.json")}, {});
  REQUIRE(of_rule(r, "duplicate-fallback").size() == 1);
  CHECK(of_rule(r, "duplicate-fallback")[0].location.line == 7);
  r = run_check({manifest("signature_mismatch.json")}, {});
  REQUIRE(of_rule(r, "signature-mismatch").size() == 1);
  CHECK(of_rule(r, "signature-mismatch")[0].message.find("The number of arguments is different") != std::string::npos);
}

TEST_CASE("check: load errors carry file and line, and later files still load") {
  CheckResult r = run_check({manifest("invalid/syntax.json"), manifest("dangling_impl.json")}, {});
  auto errors = of_rule(r, "load-error");
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].location.line == 5);
  CHECK(of_rule(r, "dangling-impl").size() == 1);
  r = run_check({manifest("invalid/bad_key.json")}, {});
  errors = of_rule(r, "load-error");
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].location.line == 10);
  CHECK(errors[0].message.find("did you mean 'Meta'") != std::string::npos);
  r = run_check({manifest("no_such_file.json")}, {});
  CHECK(of_rule(r, "load-error").size() == 1);
}

TEST_CASE("check: kernel-override with the previous kernel of §3.4, release-dependent") {
  // 2.14: the Meta override is silent; the CPU override names the Meta C++
  // kernel (the first that fixed the signature) as the previous kernel.
  CheckResult r = run_check({manifest("kernel_override.json")}, {});
  auto found = of_rule(r, "kernel-override");
  REQUIRE(found.size() == 1);
  CHECK(found[0].key == "CPU");
  CHECK(found[0].location.line == 14);
  CHECK(found[0].details ==
        "Warning only once for all operators,  other operators may also be overridden.\n"
        "  Overriding a previously registered kernel for the same operator and the same dispatch key\n"
        "  operator: myops::relu6(Tensor self) -> Tensor\n"
        "    registered at myops/defs.cpp:1\n"
        "  dispatch key: CPU\n"
        "  previous kernel: registered at myops/relu6_meta.cpp:4\n"
        "       new kernel: registered at myops/relu6_cpu_fast.py:9");
  // 1.13: every override warns, Meta too, without the "only once" line.
  r = run_check({manifest("kernel_override_1_13.json")}, {});
  found = of_rule(r, "kernel-override");
  REQUIRE(found.size() == 2);
  CHECK(found[0].key == "Meta");
  CHECK(found[1].key == "CPU");
  CHECK(found[0].details.rfind("Overriding a previously registered kernel", 0) == 0);
  CHECK(found[0].details.find("previous kernel: registered at myops/relu6_meta.cpp:4") != std::string::npos);
}

TEST_CASE("check: autogradother-ambiguity and cia-with-backend-kernel") {
  CheckResult r = run_check({manifest("autogradother_ambiguity.json")}, {});
  auto found = of_rule(r, "autogradother-ambiguity");
  REQUIRE(found.size() == 1);
  CHECK(found[0].severity == Severity::Error);
  CHECK(found[0].message.find("SparseCPU") != std::string::npos);
  // At the registration that made the row ambiguous: the SparseCPU kernel,
  // line 11 column 9 of the file (the CIA kernel is line 10).
  CHECK(found[0].location.line == 11);
  CHECK(found[0].location.column == 9);
  // §3.2: CIA + CEA -> the 34 CIA keys outside the CEA set (103 - 69) lose the math kernel.
  r = run_check({manifest("cia_with_cea.json")}, {});
  found = of_rule(r, "cia-with-backend-kernel");
  REQUIRE(found.size() == 1);
  CHECK(found[0].message.find("34 keys lose the math kernel") != std::string::npos);
  CHECK(of_rule(r, "autogradother-ambiguity").empty());
  // §3.2: CIA + CPU -> only AutogradCPU.
  r = run_check({manifest("cia_with_cpu.json")}, {});
  found = of_rule(r, "cia-with-backend-kernel");
  REQUIRE(found.size() == 1);
  CHECK(found[0].message.find("1 key loses the math kernel: AutogradCPU") != std::string::npos);
  CHECK_FALSE(r.has_errors());
}

TEST_CASE("check: required-key, scope, config and warnings-as-errors") {
  CheckOptions options;
  options.require = {"Meta"};
  CheckResult r = run_check({manifest("cia_with_cpu.json")}, options);
  CHECK(of_rule(r, "required-key").empty());  // the CIA kernel fills Meta (§2)
  r = run_check({manifest("dangling_impl.json")}, options);
  CHECK(of_rule(r, "required-key").size() == 1);
  options.require = {"AutogradPrivateUse1"};
  r = run_check({manifest("clean.json")}, options);
  // The Autograd alias fills the row, but its kernel passes the call on to
  // PrivateUse1, where the operator has nothing: a call raises there, as
  // has-kernel --works says (the outcome model follows the row below).
  REQUIRE(of_rule(r, "required-key").size() == 1);
  CHECK(of_rule(r, "required-key")[0].message.find("passes the call on to PrivateUse1, and a call raises at "
                                                   "myops::scale (PrivateUse1)") != std::string::npos);
  options.require = {"AutogradCPU"};
  r = run_check({manifest("clean.json")}, options);
  CHECK(of_rule(r, "required-key").empty());  // the Autograd alias covers it, and CPU's kernel runs below
  options.require = {"Meat"};
  CHECK_THROWS_AS(run_check({manifest("clean.json")}, options), InputError);

  options = {};
  options.op_patterns = {"myops::other*"};
  r = run_check({manifest("dangling_impl.json")}, options);
  CHECK(r.findings.empty());

  options = {};
  options.warnings_as_errors = true;
  r = run_check({manifest("cia_with_cpu.json")}, options);
  CHECK(r.has_errors());

  options = read_check_config(
      R"({"dispatchctl_check": 1, "rules": {"kernel-override": "off", "cia-with-backend-kernel": "note"}})",
      "dispatchctl.json");
  r = run_check({manifest("kernel_override_1_13.json")}, options);
  CHECK(of_rule(r, "kernel-override").empty());
  r = run_check({manifest("cia_with_cpu.json")}, options);
  REQUIRE(r.findings.size() == 1);
  CHECK(r.findings[0].severity == Severity::Note);
  CHECK_THROWS_AS(read_check_config(R"({"dispatchctl_check": 1, "rules": {"kernel-overide": "off"}})", "c.json"),
                  InputError);
  CHECK_THROWS_AS(read_check_config(R"({"dispatchctl_check": 1, "rules": {"kernel-override": "loud"}})", "c.json"),
                  InputError);
}

TEST_CASE("check: the real registries, in seconds, without false ambiguity errors") {
  // The real 2.14.1 registry has exactly 9 ambiguous AutogradOther tables,
  // all CIA + Vulkan (tests/data/torch-2.14.1/computed_tables.txt.gz); 1.13.1 none.
  CheckResult r = run_check({"builtin:2.14.1"}, {});
  auto found = of_rule(r, "autogradother-ambiguity");
  CHECK(found.size() == 9);
  for (const auto& f : found) CHECK(f.message.find("Vulkan") != std::string::npos);
  // Every inactive kernel of 2.14.1 is a Meta one: PyTorch 2.x is silent about them.
  CHECK(of_rule(r, "kernel-override").empty());
  CHECK(of_rule(r, "load-error").empty());
  r = run_check({"builtin:1.13.1"}, {});
  CHECK(of_rule(r, "autogradother-ambiguity").empty());
  CHECK(of_rule(r, "kernel-override").empty());
}

TEST_CASE("check: a manifest on top of a real registry is checked alone") {
  const CheckResult r = run_check({"builtin:2.14.1", manifest("cia_with_cpu.json")}, {});
  REQUIRE(r.findings.size() == 1);
  CHECK(r.findings[0].op == "myops::blend");
  CHECK(r.operators_checked == 1);
}

TEST_CASE("check: kernel-override on a real registry matches PyTorch 1.13.1's warning text") {
  // Real PyTorch 1.13.1 (Debian python3-torch), Library("aten", "IMPL").impl("sin", fn, "CPU"):
  //   Overriding a previously registered kernel for the same operator and the same dispatch key
  //     operator: aten::sin(Tensor self) -> Tensor
  //       registered at ./build/aten/src/ATen/RegisterSchema.cpp:6
  //     dispatch key: CPU
  //     previous kernel: registered at ./aten/src/ATen/BatchingRegistrations.cpp:1068
  //          new kernel: registered at /dev/null:2
  // The dump does not record registration order, so which "previous kernel" PyTorch names is not
  // known: the quoted warning says so instead of guessing, and so does the finding.
  const CheckResult r = run_check({"builtin:1.13.1", manifest("sin_override_1_13.json")}, {});
  auto found = of_rule(r, "kernel-override");
  REQUIRE(found.size() == 1);
  const std::string& d = found[0].details;
  CHECK(d.rfind("Overriding a previously registered kernel for the same operator and the same dispatch key\n"
                "  operator: aten::sin(Tensor self) -> Tensor\n"
                "    registered at ./build/aten/src/ATen/RegisterSchema.cpp:6\n"
                "  dispatch key: CPU\n"
                "  previous kernel: (not known: a dump does not record which kernel PyTorch names here)\n",
                0) == 0);
  CHECK(d.find("\n       new kernel: registered at /dev/null:2") != std::string::npos);
  CHECK(found[0].message.find("dump does not record registration order") != std::string::npos);
  CHECK(r.operators_checked == 1);
}

TEST_CASE("check: stale-live-row when CIA is registered before CEA, not the other way round") {
  // §3.3: CIA before CEA -> AutogradCPU keeps running the math kernel although
  // the recomputed table no longer shows it; CEA before CIA -> both agree.
  // Bare: the manifest's own dispatcher (over builtin:2.14.1 its fallbacks
  // fill AutogradOther and Autograd*, a second cause).
  CheckOptions bare;
  bare.layering = LoadRequest::Layering::Bare;
  CheckResult r = run_check({manifest("cia_with_cea.json")}, bare);
  auto found = of_rule(r, "stale-live-row");
  REQUIRE(found.size() == 1);
  // One cause, said once for every stale key (the message lists the keys).
  CHECK(found[0].details.rfind("all 34: runs math kernel mix_math", 0) == 0);
  CHECK(found[0].details.find("\n") == std::string::npos);
  r = run_check({manifest("cea_then_cia.json")}, bare);
  CHECK(of_rule(r, "stale-live-row").empty());
  CHECK(of_rule(r, "cia-with-backend-kernel").size() == 1);
  // Dumps record no registration order: the real registries are skipped.
  CHECK(of_rule(run_check({"builtin:2.14.1"}, {}), "stale-live-row").empty());
}

TEST_CASE("check: no-autograd-kernel for backend kernels that no autograd kernel covers") {
  const CheckResult r = run_check({"builtin:2.14.1", manifest("no_autograd.json")}, {});
  const auto found = of_rule(r, "no-autograd-kernel");
  REQUIRE(found.size() == 1);  // the fallthrough at Autograd says "not differentiable"
  CHECK(found[0].op == "myops::fused");
  CHECK(found[0].severity == Severity::Warning);
  CHECK(found[0].message.find("AutogradCPU") != std::string::npos);
  CHECK(found[0].message.find("AutogradMeta") != std::string::npos);
  CHECK(found[0].message.find("gradients are missing") != std::string::npos);
  CHECK(found[0].message.find("register a kernel at Autograd") != std::string::npos);
  CHECK_FALSE(r.has_errors());
  // PyTorch's own operators all have autograd kernels where they have backend kernels.
  CheckOptions builtins_only;
  builtins_only.op_patterns = {"aten::add.Tensor", "aten::mm", "aten::nonzero"};
  CHECK(of_rule(run_check({"builtin:2.14.1"}, builtins_only), "no-autograd-kernel").empty());
}

TEST_CASE("check: no-autograd-kernel looks at what the user registered; PyTorch's own ops only with --include-base") {
  // _c10d_functional::all_reduce has a CompositeExplicitAutograd kernel and, by design, no autograd kernel.
  CheckOptions aten;
  aten.op_patterns = {"_c10d_functional::all_reduce"};
  CHECK(of_rule(run_check({"builtin:2.14.1"}, aten), "no-autograd-kernel").empty());
  CHECK(of_rule(run_check({"builtin:2.14.1", manifest("no_autograd.json")}, aten), "no-autograd-kernel").empty());
  aten.include_base = true;
  CHECK(of_rule(run_check({"builtin:2.14.1"}, aten), "no-autograd-kernel").size() == 1);
  // The whole 2.14.1 registry: none by default (303 with --include-base).
  CHECK(of_rule(run_check({"builtin:2.14.1"}, {}), "no-autograd-kernel").empty());
}

TEST_CASE("check: --require with an alias key means its runtime keys the operator has backends for") {
  CheckOptions o;
  o.require = {"Autograd"};
  const CheckResult r = run_check({"builtin:2.14.1", manifest("no_autograd.json")}, o);
  std::vector<std::string> keys;
  for (const auto& f : of_rule(r, "required-key")) keys.push_back(f.op + " " + f.key);
  std::sort(keys.begin(), keys.end());
  CHECK(keys == std::vector<std::string>{"myops::fused AutogradCPU", "myops::fused AutogradMeta"});
  CHECK(r.has_errors());
  o.require = {"Autogradd"};
  CHECK_THROWS_WITH_AS(run_check({"builtin:2.14.1", manifest("no_autograd.json")}, o),
                       doctest::Contains("did you mean 'Autograd'"), InputError);
}

TEST_CASE("check: a manifest that fails to load does not put the base registry in scope") {
  // The issue's case: the manifest does not load at all, PyTorch is not linted instead.
  const CheckResult r = run_check({"builtin:2.14.1", manifest("invalid/syntax.json")}, {});
  REQUIRE(r.findings.size() == 1);
  CHECK(r.findings[0].rule == "load-error");
  CHECK(r.findings[0].location.file.find("syntax.json") != std::string::npos);
  CHECK(r.operators_checked == 0);
  CHECK(r.has_errors());
  // One that loads in part: only what it touched is in scope.
  for (const auto& f : run_check({"builtin:2.14.1", manifest("invalid/bad_key.json")}, {}).findings)
    CHECK(f.location.file.find("builtin:") == std::string::npos);
  // A load error cannot be turned off, and comes before other files' findings.
  CheckOptions o;
  o.severities["load-error"] = std::nullopt;
  const CheckResult both = run_check({manifest("dangling_impl.json"), manifest("invalid/syntax.json")}, o);
  REQUIRE(both.findings.size() >= 2);
  CHECK(both.findings[0].rule == "load-error");
  CHECK(both.has_errors());
  // --include-base (or "include_base" in dispatchctl.json) asks for PyTorch's own findings too.
  o = read_check_config(R"({"dispatchctl_check": 1, "include_base": true})", "dispatchctl.json");
  CHECK(o.include_base);
  CHECK_FALSE(of_rule(run_check({"builtin:2.14.1", manifest("invalid/syntax.json")}, o),
                      "autogradother-ambiguity").empty());
}

TEST_CASE("check: a first manifest follows the loading layer's layering rule") {
  // Layered over its release's registry (issue 24 item 5): 1.13.1's autograd
  // fallbacks are fallthroughs (lib/builtin/data/torch-1.13.1/fallbacks.json),
  // so a CPU kernel with no autograd kernel computes no gradient.
  CheckResult r = run_check({manifest("kernel_override_1_13.json")}, {});
  REQUIRE(r.notes.size() == 1);
  CHECK(r.notes[0].find("layered over builtin:1.13.1") != std::string::npos);
  auto found = of_rule(r, "no-autograd-kernel");
  REQUIRE(found.size() == 1);
  CHECK(found[0].message.find("fallthrough") != std::string::npos);
  CHECK(r.registry->operators().size() > 2000);
  // --layer bare: the manifest alone, no note.
  CheckOptions bare;
  bare.layering = LoadRequest::Layering::Bare;
  r = run_check({manifest("kernel_override_1_13.json")}, bare);
  CHECK(r.notes.empty());
  CHECK(r.registry->operators().size() == 1);
  // A whole registry before it: the rule is not asked.
  r = run_check({"builtin:1.13.1", manifest("kernel_override_1_13.json")}, {});
  CHECK(r.notes.empty());
}

TEST_CASE("check: an ambiguity finding on a real registry names a line of one of its two sides") {
  // A finding on builtin:2.14.1 names a line of PyTorch's own _dispatch_dump
  // (lib/builtin/data/torch-2.14.1/registry_state.txt.gz, real 2.14.1). The 9
  // ambiguous AutogradOther tables are CIA + Vulkan: the line must be the
  // operator's CompositeImplicitAutograd registration or its Vulkan kernel,
  // inside that operator's "=== NAME" block (issue 24 item 19: one line off
  // survived the suite).
  const std::string dump =
      read_input_file(std::string(DISPATCHCTL_SOURCE_DIR) + "/lib/builtin/data/torch-2.14.1/registry_state.txt.gz");
  std::vector<std::string_view> lines;
  for (size_t at = 0; at < dump.size();) {
    const size_t end = std::min(dump.find('\n', at), dump.size());
    lines.push_back(std::string_view(dump).substr(at, end - at));
    at = end + 1;
  }
  const CheckResult r = run_check({"builtin:2.14.1"}, {});
  const auto found = of_rule(r, "autogradother-ambiguity");
  REQUIRE(found.size() == 9);
  for (const auto& f : found) {
    CAPTURE(f.op);
    CHECK(f.location.file == "builtin:2.14.1");
    REQUIRE(f.location.line >= 1);
    REQUIRE(static_cast<size_t>(f.location.line) <= lines.size());
    const std::string_view line = lines[static_cast<size_t>(f.location.line) - 1];
    CAPTURE(line);
    CHECK((line.rfind("CompositeImplicitAutograd[alias]: ", 0) == 0 || line.rfind("Vulkan: ", 0) == 0));
    size_t block = static_cast<size_t>(f.location.line) - 1;
    while (block > 0 && lines[block].rfind("=== ", 0) != 0) --block;
    CHECK(lines[block] == "=== " + f.op);
  }
}

TEST_CASE("check: foreign-backend-key notes a kernel at another backend's key in a backend's manifest") {
  const CheckResult r = run_check({"builtin:2.14.1", manifest("foreign_backend_key.json")}, {});
  const auto notes = of_rule(r, "foreign-backend-key");
  REQUIRE(notes.size() == 1);
  CHECK(notes[0].severity == Severity::Note);
  CHECK(notes[0].op == "aten::add.Tensor");
  CHECK(notes[0].key == "XPU");
  CHECK(notes[0].location.line == 6);
  CHECK(notes[0].message.find("PrivateUse1") != std::string::npos);
}
