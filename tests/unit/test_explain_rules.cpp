// Every explanation branch of §3.2 on small manifests. Expected outcomes
// are the spec's (docs/dispatch-semantics.md §3.2 "Consequences", §4.3, §7).
#include <doctest/doctest.h>

#include <algorithm>

#include "explain/explain.h"
#include "query/predicates.h"
#include "test_support.h"
#include "util/errors.h"

using namespace dispatchctl;

namespace {

// One operator test::foo with `kernels` (JSON array items) and `fallbacks`.
std::unique_ptr<Registry> foo(const std::string& kernels, const std::string& fallbacks = "",
                              const std::string& version = "2.14.1") {
  return test::registry_from_json(
      R"({"dispatchctl_manifest": 1, "torch_version": ")" + version + R"(", "fallbacks": [)" + fallbacks +
      R"(], "operators": [{"name": "test::foo", "schema": "test::foo(Tensor x) -> Tensor", "kernels": [)" +
      kernels + "]}]}");
}

std::string k(const std::string& key, const std::string& kernel) {
  return R"({"key": ")" + key + R"(", "kernel": ")" + kernel + R"("})";
}

struct Fixture {
  std::unique_ptr<Registry> registry;
  const Catalogue& cat() const { return registry->catalogue(); }
  Key key(const char* name) const { return *cat().find(name); }
  const Operator& op() const { return *registry->find("test::foo"); }
  RowExplanation explain(const char* name, bool fixes = true) const {
    return explain_row(*registry, op(), key(name), fixes);
  }
  const RuleOutcome& rule(const RowExplanation& e, int step) const {
    for (const auto& r : e.rules)
      if (r.step == step) return r;
    FAIL("no step " << step);
    return e.rules.front();
  }
  std::vector<std::string> names(const std::vector<Key>& keys) const {
    std::vector<std::string> out;
    for (Key x : keys) out.push_back(cat().name(x));
    return out;
  }
  const Fix* fix_at(const RowExplanation& e, const char* name) const {
    for (const auto& f : e.fixes)
      if (f.kind == Fix::Kind::Kernel && f.key == key(name)) return &f;
    return nullptr;
  }
};

bool has_note(const RowExplanation& e, const std::string& word) {
  return std::any_of(e.notes.begin(), e.notes.end(), [&](const auto& n) { return n.find(word) != std::string::npos; });
}

using S = RuleOutcome::Status;

}  // namespace

TEST_CASE("explain: a direct backend kernel blocks the math kernel on the matching autograd key only") {
  Fixture f{foo(k("CPU", "fn_cpu") + "," + k("CompositeImplicitAutograd", "fn_math"),
                R"({"key": "AutogradCPU", "kernel": "autograd_fallback"})")};
  auto e = f.explain("AutogradCPU");
  CHECK(e.row.rule == Rule::BackendFallback);  // no Autograd kernel: the AutogradCPU fallback
  CHECK(f.rule(e, 1).status == S::NoRegistration);
  CHECK(f.rule(e, 2).status == S::NotApplicable);
  CHECK(f.rule(e, 3).status == S::NotApplicable);
  CHECK(f.rule(e, 6).status == S::Blocked);
  CHECK(f.names(f.rule(e, 6).blockers) == std::vector<std::string>{"CPU"});
  CHECK(f.rule(e, 7).status == S::NoRegistration);
  CHECK(f.rule(e, 9).status == S::Chosen);
  // Other autograd keys still get the math kernel.
  auto cuda = f.explain("AutogradCUDA");
  CHECK(cuda.row.rule == Rule::CompositeImplicitAutograd);
  CHECK(f.rule(cuda, 6).status == S::Chosen);
  CHECK(f.rule(cuda, 9).status == S::NotReached);  // no AutogradCUDA fallback here
  // CPU itself: the direct kernel; the math kernel is shadowed.
  auto cpu = f.explain("CPU");
  CHECK(cpu.row.rule == Rule::Direct);
  CHECK(f.rule(cpu, 6).status == S::Shadowed);
}

TEST_CASE("explain: a CompositeExplicitAutograd kernel blocks the math kernel on every key it does not cover") {
  Fixture f{foo(k("CompositeExplicitAutograd", "fn_cea") + "," + k("CompositeImplicitAutograd", "fn_math") + "," +
                k("Autograd", "fn_ag"))};
  auto ag = f.explain("AutogradCPU");
  CHECK(ag.row.rule == Rule::Autograd);
  CHECK(f.rule(ag, 6).status == S::Blocked);
  CHECK(f.names(f.rule(ag, 6).blockers) == std::vector<std::string>{"CompositeExplicitAutograd"});
  CHECK(f.rule(ag, 6).reason.find("CompositeExplicitAutograd kernel exists") != std::string::npos);
  CHECK(f.rule(ag, 7).status == S::Chosen);
  // NestedTensor keys are not in CEA: blocked there too, and nothing else fills them.
  auto nested = f.explain("NestedTensorCPU");
  CHECK(nested.row.rule == Rule::Missing);
  CHECK(f.rule(nested, 6).status == S::Blocked);
  CHECK(f.rule(nested, 10).status == S::Chosen);
  // A CEA key takes the default backend kernel.
  auto cpu = f.explain("CPU");
  CHECK(cpu.row.rule == Rule::CompositeExplicitAutograd);
  CHECK(f.rule(cpu, 3).status == S::Chosen);
  CHECK(f.rule(cpu, 6).status == S::Shadowed);
}

TEST_CASE("explain: CompositeExplicitAutogradNonFunctional alone does not block the math kernel") {
  Fixture f{foo(k("CompositeExplicitAutogradNonFunctional", "fn_ceanf") + "," +
                k("CompositeImplicitAutograd", "fn_math"))};
  CHECK(f.explain("AutogradCPU").row.rule == Rule::CompositeImplicitAutograd);
  auto xla = f.explain("XLA");  // XLA is not in the CEANF set
  CHECK(xla.row.rule == Rule::CompositeImplicitAutograd);
  CHECK(f.rule(xla, 2).status == S::NotApplicable);
  CHECK(has_note(xla, "does not block the math kernel"));
  CHECK(f.explain("CPU").row.rule == Rule::CompositeExplicitAutogradNonFunctional);
}

TEST_CASE("explain: AutogradOther ambiguity names the kernels that cause it") {
  Fixture f{foo(k("SparseCPU", "fn_sparse") + "," + k("Vulkan", "fn_vulkan") + "," +
                k("CompositeImplicitAutograd", "fn_math") + "," + k("Autograd", "fn_ag"))};
  auto e = f.explain("AutogradOther");
  CHECK(e.row.rule == Rule::AmbiguousAutogradOther);
  CHECK(e.row.debug() == "ambiguous_autogradother");
  CHECK(e.raises);
  const auto& step6 = f.rule(e, 6);
  CHECK(step6.rule == Rule::AmbiguousAutogradOther);
  CHECK(step6.status == S::Chosen);
  auto blockers = f.names(step6.blockers);
  std::sort(blockers.begin(), blockers.end());
  CHECK(blockers == std::vector<std::string>{"SparseCPU", "Vulkan"});
  CHECK(f.rule(e, 7).status == S::Shadowed);  // even though an Autograd kernel exists
  CHECK(has_note(e, "INTERNAL ASSERT"));
  // Only a direct AutogradOther kernel resolves it.
  REQUIRE(f.fix_at(e, "AutogradOther"));
  CHECK(f.fix_at(e, "AutogradOther")->fills);
  CHECK(f.fix_at(e, "AutogradOther")->result == Rule::Direct);
  REQUIRE(f.fix_at(e, "Autograd"));
  CHECK_FALSE(f.fix_at(e, "Autograd")->fills);
  CHECK_FALSE(outcome_works(classify_followed(*f.registry, f.op(), e.row, computed_row_of(*f.registry)).outcome));
  CHECK(has_computed_kernel_for_dispatch_key(*f.registry, f.op(), f.key("AutogradOther")));
}

TEST_CASE("explain: a CEA kernel does not make AutogradOther ambiguous") {
  Fixture f{foo(k("CompositeExplicitAutograd", "fn_cea") + "," + k("CompositeImplicitAutograd", "fn_math"))};
  auto e = f.explain("AutogradOther");
  CHECK(e.row.rule == Rule::Missing);
  CHECK(f.rule(e, 6).status == S::Blocked);
}

TEST_CASE("explain: [quirk] HIP and VE kernels do not block the math kernel on AutogradHIP/AutogradVE") {
  for (std::string version : {"2.14.1", "1.13.1"}) {
    CAPTURE(version);
    Fixture f{foo(k("HIP", "fn_hip") + "," + k("VE", "fn_ve") + "," + k("CPU", "fn_cpu") + "," +
                      k("CompositeImplicitAutograd", "fn_math"),
                  "", version)};
    for (const char* name : {"AutogradHIP", "AutogradVE"}) {
      CAPTURE(name);
      auto e = f.explain(name);
      CHECK(e.row.rule == Rule::CompositeImplicitAutograd);
      CHECK(e.unblocked_backend == f.key(name + 8));
      CHECK(has_note(e, "[quirk]"));
    }
    CHECK(f.explain("AutogradCPU").row.rule == Rule::Missing);  // blocked by CPU, no fallback here
    CHECK(f.explain("AutogradCPU").unblocked_backend == k_undefined);
  }
}

TEST_CASE("explain: [quirk] a building block counts as a backend kernel for every instance") {
  Fixture f{foo(k("Dense", "fn_dense") + "," + k("CompositeImplicitAutograd", "fn_math"))};
  auto e = f.explain("AutogradCUDA");
  CHECK(e.row.rule == Rule::Missing);
  CHECK(f.names(f.rule(e, 6).blockers) == std::vector<std::string>{"Dense"});
  CHECK(has_note(e, "building block Dense"));
  CHECK(f.explain("CUDA").row.rule == Rule::CompositeImplicitAutograd);  // Dense fills no row itself
  CHECK(f.explain("AutogradOther").row.rule == Rule::CompositeImplicitAutograd);
}

TEST_CASE("explain: inactive kernels are listed newest first after the active one") {
  Fixture f{foo(k("CPU", "fn_cpu_old") + "," + k("CPU", "fn_cpu_mid") + "," + k("CPU", "fn_cpu") + "," +
                k("CompositeExplicitAutograd", "fn_cea_old") + "," + k("CompositeExplicitAutograd", "fn_cea"))};
  auto e = f.explain("CPU");
  CHECK(e.row.debug() == "fn_cpu");
  REQUIRE(e.inactive.size() == 2);
  CHECK(e.inactive[0]->debug == "fn_cpu_mid");
  CHECK(e.inactive[1]->debug == "fn_cpu_old");
  auto cuda = f.explain("CUDA");
  CHECK(cuda.row.debug() == "fn_cea");
  REQUIRE(cuda.inactive.size() == 1);
  CHECK(cuda.inactive[0]->debug == "fn_cea_old");
}

TEST_CASE("explain: fallthrough fallbacks are valid rows that a call skips") {
  Fixture f{foo(k("CPU", "fn_cpu"), R"({"key": "AutogradCPU", "kernel": "ag_fallthrough", "fallthrough": true},
                                      {"key": "BackendSelect", "kernel": "bs", "fallthrough": true})",
                "1.13.1")};
  auto e = f.explain("AutogradCPU");
  CHECK(e.row.rule == Rule::BackendFallback);
  CHECK(e.row.fallthrough());
  CHECK(f.rule(e, 9).status == S::Chosen);
  CHECK(has_note(e, "a call never runs it"));
  CHECK(outcome_works(classify_followed(*f.registry, f.op(), e.row, computed_row_of(*f.registry)).outcome));
  CHECK(has_computed_kernel_for_dispatch_key(*f.registry, f.op(), f.key("BackendSelect")));
  CHECK_FALSE(has_kernel_for_dispatch_key(f.op(), f.key("BackendSelect")));
}

TEST_CASE("explain: a missing row shows PyTorch's call-time error and what would fill it") {
  Fixture f{foo(k("CPU", "fn_cpu"), R"({"key": "AutogradCPU", "kernel": "fb_ag"})")};
  auto e = f.explain("Meta");
  CHECK(e.row.rule == Rule::Missing);
  CHECK(f.rule(e, 10).status == S::Chosen);
  CHECK(e.error ==
        "Could not run 'test::foo' with arguments from the 'Meta' backend. This could be because the operator "
        "doesn't exist for this backend, or was omitted during the selective/custom build process (if using custom "
        "build). If you are a Facebook employee using PyTorch on mobile, please visit https://fburl.com/ptmfixes for "
        "possible resolutions. 'test::foo' is only available for these backends: [CPU, AutogradCPU].\n\n"
        "CPU: fn_cpu [kernel]\nAutogradCPU: fb_ag [backend fallback]\n");
  CHECK(f.names(e.available) == std::vector<std::string>{"CPU", "AutogradCPU"});
  // Meta is in CEANF, CEA and CIA (not Autograd): each fills it; CIA is not blocked on Meta.
  for (const char* where : {"Meta", "CompositeExplicitAutogradNonFunctional", "CompositeExplicitAutograd",
                            "CompositeImplicitAutograd"}) {
    CAPTURE(where);
    REQUIRE(f.fix_at(e, where));
    CHECK(f.fix_at(e, where)->fills);
  }
  CHECK(f.fix_at(e, "Autograd") == nullptr);
  CHECK(f.fix_at(e, "Meta")->also_fills.empty());
  // CEA also fills CUDA … but changes no working row (CPU keeps its kernel).
  const Fix& cea = *f.fix_at(e, "CompositeExplicitAutograd");
  CHECK(std::find(cea.also_fills.begin(), cea.also_fills.end(), f.key("CUDA")) != cea.also_fills.end());
  CHECK(cea.also_changes.empty());
  // CIA would also fill AutogradCUDA but replace nothing; AutogradCPU keeps its fallback (blocked by CPU).
  const Fix& cia = *f.fix_at(e, "CompositeImplicitAutograd");
  CHECK(std::find(cia.also_fills.begin(), cia.also_fills.end(), f.key("AutogradCUDA")) != cia.also_fills.end());
  CHECK(std::find(cia.also_changes.begin(), cia.also_changes.end(), f.key("AutogradCPU")) == cia.also_changes.end());
  const auto fb = std::find_if(e.fixes.begin(), e.fixes.end(),
                               [](const Fix& x) { return x.kind == Fix::Kind::BackendFallback; });
  REQUIRE(fb != e.fixes.end());
  CHECK(fb->fills);
  CHECK_FALSE(has_computed_kernel_for_dispatch_key(*f.registry, f.op(), f.key("Meta")));
}

TEST_CASE("explain: fixes say which working rows they would change") {
  // NestedTensorCPU blocks the math kernel on AutogradNestedTensor (its backend
  // set is every NestedTensor key) and nothing else fills it.
  Fixture f{foo(k("NestedTensorCPU", "fn_ntcpu") + "," + k("CompositeImplicitAutograd", "fn_math"))};
  auto e = f.explain("AutogradNestedTensor");
  CHECK(e.row.rule == Rule::Missing);
  CHECK(f.names(f.rule(e, 6).blockers) == std::vector<std::string>{"NestedTensorCPU"});
  // CIANT is never blocked: it fills the row and replaces the math kernel on NestedTensorCUDA …
  const Fix* ciant = f.fix_at(e, "CompositeImplicitAutogradNestedTensor");
  REQUIRE(ciant);
  CHECK(ciant->fills);
  CHECK(ciant->result == Rule::CompositeImplicitAutogradNestedTensor);
  CHECK(std::find(ciant->also_changes.begin(), ciant->also_changes.end(), f.key("NestedTensorCUDA")) !=
        ciant->also_changes.end());
  // … re-registering CIA does not help (still blocked); Autograd fills it.
  REQUIRE(f.fix_at(e, "CompositeImplicitAutograd"));
  CHECK_FALSE(f.fix_at(e, "CompositeImplicitAutograd")->fills);
  CHECK(f.fix_at(e, "Autograd")->fills);
  // Fake is in no alias set: only a direct kernel or a backend fallback fills it.
  auto fake = f.explain("Fake");
  REQUIRE(fake.fixes.size() == 2);
  CHECK(fake.fixes[0].key == f.key("Fake"));
  CHECK(fake.fixes[1].kind == Fix::Kind::BackendFallback);
  CHECK(f.explain("NestedTensorCUDA").fixes.empty());  // a working row needs no fix
}

TEST_CASE("explain: the missing Undefined row raises PyTorch's no-tensor-arguments error") {
  Fixture f{foo(k("CPU", "fn_cpu"))};
  auto e = f.explain("Undefined");
  CHECK(e.row.rule == Rule::Missing);
  CHECK(e.error.rfind("There were no tensor arguments to this function (e.g., you passed an empty list of Tensors), "
                      "but no fallback function is registered for schema test::foo.  This usually means that this "
                      "function requires a non-empty list of Tensors, or that you (the operator writer) forgot to "
                      "register a fallback function.  Available functions are [CPU].\n\nCPU: fn_cpu [kernel]\n",
                      0) == 0);
  // Undefined takes CEANF, CEA or CIA, never a direct kernel.
  std::vector<std::string> where;
  for (const auto& fix : e.fixes) where.push_back(f.cat().name(fix.key));
  CHECK(where == std::vector<std::string>{"CompositeExplicitAutogradNonFunctional", "CompositeExplicitAutograd",
                                          "CompositeImplicitAutograd"});
}

TEST_CASE("explain: the 2.x Meta backend fallback is valid but raises") {
  Fixture f{foo(k("CPU", "fn_cpu"),
                R"({"key": "Meta", "kernel": "registered at ./aten/src/ATen/core/MetaFallbackKernel.cpp:23"})")};
  auto e = f.explain("Meta");
  CHECK(e.row.rule == Rule::BackendFallback);
  CHECK(e.raises);
  CHECK(e.error.empty());  // not missing: has_computed_kernel says yes
  CHECK(has_computed_kernel_for_dispatch_key(*f.registry, f.op(), f.key("Meta")));
  CHECK_FALSE(outcome_works(classify_followed(*f.registry, f.op(), e.row, computed_row_of(*f.registry)).outcome));
  REQUIRE(f.fix_at(e, "Meta"));
  CHECK(f.fix_at(e, "Meta")->fills);
  CHECK(std::none_of(e.fixes.begin(), e.fixes.end(),
                     [](const Fix& x) { return x.kind == Fix::Kind::BackendFallback; }));
}

TEST_CASE("explain: steps are numbered 1, 2, 3 … as printed; step 4 is the backend kernel check; 1.13 lists step 8 as absent") {
  Fixture f{foo(k("FuncTorchBatchedDecomposition", "fn_ftbd") + "," +
                k("CompositeImplicitAutogradNestedTensor", "fn_nested") + "," + k("CompositeExplicitAutograd", "fn_cea"))};
  CHECK(f.explain("FuncTorchBatched").row.rule == Rule::FuncTorchBatchedDecomposition);
  auto nested = f.explain("AutogradNestedTensor");
  CHECK(nested.row.rule == Rule::CompositeImplicitAutogradNestedTensor);  // CIANT is never blocked
  auto numbers = [](const RowExplanation& e) {
    std::vector<int> out;
    for (const auto& r : e.rules) out.push_back(r.step);
    return out;
  };
  CHECK(numbers(nested) == std::vector<int>{1, 2, 3, 4, 5, 6, 7, 8, 9});
  CHECK(f.rule(nested, 4).status == S::Yes);  // the CompositeExplicitAutograd kernel; step 5 ignores it
  CHECK(f.rule(f.explain("CPU"), 4).status == S::NotReached);  // step 3 filled the row before
  Fixture old{foo(k("CPU", "fn_cpu") + "," + k("CompositeImplicitAutograd", "fn_math"), "", "1.13.1")};
  auto autograd_cpu = old.explain("AutogradCPU");
  CHECK(numbers(autograd_cpu) == std::vector<int>{1, 2, 3, 4, 5, 6, 7, 8, 9, 10});
  CHECK(old.rule(autograd_cpu, 8).status == S::NotInRelease);
  CHECK(old.rule(autograd_cpu, 8).label == "FuncTorchBatchedDecomposition");
  const auto& check = old.rule(autograd_cpu, 4);
  CHECK(check.status == S::Yes);
  CHECK(check.label == "backend kernel check");
  CHECK(old.names(check.blockers) == std::vector<std::string>{"CPU"});
  CHECK(old.rule(autograd_cpu, 6).status == S::Blocked);
  auto autograd_cuda = old.explain("AutogradCUDA");
  CHECK(old.rule(autograd_cuda, 4).status == S::No);
  CHECK(old.rule(autograd_cuda, 6).status == S::Chosen);
}

TEST_CASE("explain: an alias or building block explains every runtime key it covers") {
  Fixture f{foo(k("CPU", "fn_cpu") + "," + k("CompositeImplicitAutograd", "fn_math"))};
  auto cia = explain_operator_key(*f.registry, f.op(), f.key("CompositeImplicitAutograd"));
  CHECK(cia.rows.size() == 103);  // §2: CIA covers 103 runtime keys in 2.14
  CHECK(std::all_of(cia.rows.begin(), cia.rows.end(), [](const auto& r) { return r.fixes.empty(); }));
  auto dense = explain_operator_key(*f.registry, f.op(), f.key("Dense"));
  REQUIRE(dense.rows.size() == 16);
  CHECK(f.cat().name(dense.rows.front().key) == "CPU");
  CHECK(f.cat().name(dense.rows.back().key) == "Meta");
  CHECK(explain_operator_key(*f.registry, f.op(), f.key("AutogradCPU")).rows.size() == 1);
}

TEST_CASE("has-kernel: PyTorch's answers (§7)") {
  Fixture f{foo(k("CPU", "fn_cpu") + "," + k("CompositeImplicitAutograd", "fn_math"))};
  const Operator& op = f.op();
  // §7 example: op with CPU + CIA.
  CHECK_FALSE(has_kernel_for_dispatch_key(op, f.key("CUDA")));
  CHECK(has_computed_kernel_for_dispatch_key(*f.registry, op, f.key("CUDA")));
  CHECK_FALSE(has_kernel_for_dispatch_key(op, f.key("AutogradCPU")));
  CHECK(has_kernel_for_dispatch_key(op, f.key("CompositeImplicitAutograd")));
  // Building blocks answer for the CPU instance: Dense ≡ CPU, AutogradFunctionality ≡ AutogradCPU.
  CHECK(computed_row_key(f.cat(), f.key("Dense")) == f.key("CPU"));
  CHECK(computed_row_key(f.cat(), f.key("AutogradFunctionality")) == f.key("AutogradCPU"));
  CHECK(has_computed_kernel_for_dispatch_key(*f.registry, op, f.key("Dense")));
  CHECK_THROWS_WITH_AS(has_computed_kernel_for_dispatch_key(*f.registry, op, f.key("CompositeImplicitAutograd")),
                       "Alias keys do not have runtime kernel registrations.", InputError);
}

TEST_CASE("explain: a stale live row (CIA registered before CEA) is what a call and has_computed see") {
  // §3.3: CIA then CEA leaves AutogradCPU running the math kernel although the
  // recomputed row says otherwise; _dispatch_has_computed_kernel reads the live row.
  Fixture f{foo(k("CompositeImplicitAutograd", "fn_math") + "," + k("CompositeExplicitAutograd", "fn_cea"))};
  auto e = f.explain("AutogradCPU");
  CHECK(e.row.rule == Rule::Missing);  // what _dispatch_dump_table shows (no line)
  CHECK(e.stale);
  CHECK(e.live.rule == Rule::CompositeImplicitAutograd);
  CHECK(has_note(e, "stale"));
  CHECK(has_computed_kernel_for_dispatch_key(*f.registry, f.op(), f.key("AutogradCPU")));
  // The other order agrees.
  Fixture g{foo(k("CompositeExplicitAutograd", "fn_cea") + "," + k("CompositeImplicitAutograd", "fn_math"))};
  CHECK_FALSE(g.explain("AutogradCPU").stale);
  CHECK_FALSE(has_computed_kernel_for_dispatch_key(*g.registry, g.op(), g.key("AutogradCPU")));
}
