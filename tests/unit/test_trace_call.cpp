// trace: key-set computation and hops (docs/dispatch-semantics.md §5, §9.1).
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include <algorithm>

#include "registry/manifest.h"
#include "builtin/builtin_catalogues.h"
#include "load/load_registry.h"
#include "render/trace_render.h"
#include "trace/trace.h"
#include "util/errors.h"

namespace dispatchctl {
namespace {

struct Fixture {
  std::unique_ptr<Registry> reg;
  const Operator* op = nullptr;
};

Fixture builtin_op(const std::string& name, const std::string& builtin = "builtin:2.14.1") {
  Fixture f;
  f.reg = load_registry({builtin});
  f.op = f.reg->find(name);
  REQUIRE(f.op);
  return f;
}

Fixture custom_op(const nlohmann::json& kernels, const std::string& builtin = "builtin:2.14.1",
                  const std::string& version = "2.14.1") {
  Fixture f;
  f.reg = load_registry({builtin});
  nlohmann::json m = {{"dispatchctl_manifest", 1},
                      {"torch_version", version},
                      {"operators", {{{"name", "t::op"}, {"schema", "t::op(Tensor x) -> Tensor"}, {"kernels", kernels}}}}};
  apply_manifest(*f.reg, read_manifest(m.dump(), "test.json", {builtin_releases()}));
  f.op = f.reg->find("t::op");
  return f;
}

Trace run(const Fixture& f, CallOptions options) {
  return trace_call(*f.reg, *f.op, make_call_setup(f.reg->catalogue(), options));
}

std::vector<std::string> rows(const Fixture& f, const Trace& t) {
  std::vector<std::string> out;
  for (const Hop& h : t.hops) out.push_back(f.reg->catalogue().name(h.row.key));
  return out;
}

std::string set(const Fixture& f, KeySet s) { return f.reg->catalogue().format(s); }

using V = std::vector<std::string>;

}  // namespace

TEST_CASE("trace: the worked example of §5.4 (aten::add.Tensor, CPU tensors, 2.14.1)") {
  const Fixture f = builtin_op("aten::add.Tensor");
  CallOptions o;
  o.tensors = {"cpu:requires_grad", "cpu"};
  const Trace t = run(f, o);
  const KeySetComputation& c = t.calls.at(0);
  CHECK(set(f, c.tensor_union) == "DispatchKeySet(CPU, ADInplaceOrView, AutogradCPU, AutocastCPU)");
  CHECK(set(f, c.after_tls) == "DispatchKeySet(CPU, BackendSelect, ADInplaceOrView, AutogradCPU)");
  CHECK(set(f, c.dispatch) == "DispatchKeySet(CPU, AutogradCPU)");
  CHECK(rows(f, t) == V{"AutogradCPU", "CPU"});
  CHECK(set(f, t.hops[0].received) == "DispatchKeySet(CPU, AutogradCPU)");
  CHECK(t.hops[0].row.rule == Rule::Autograd);
  CHECK(t.hops[0].action == HopAction::Redispatch);
  CHECK(describe_mask(f.reg->catalogue(), t.hops[0].mask) == "FULL_AFTER(AutogradOther)");
  CHECK(set(f, t.hops[1].received) == "DispatchKeySet(CPU)");
  CHECK(t.hops[1].action == HopAction::Return);
  CHECK(t.outcome == Trace::End::Completed);
  const auto j = trace_json(*f.reg, t, {});
  CHECK(j["hops"][0]["row"] == "AutogradCPU");
  CHECK(j["hops"][1]["received"] == nlohmann::ordered_json::array({"CPU"}));
}

TEST_CASE("trace: inference tensors in inference mode go straight to CPU") {
  const Fixture f = builtin_op("aten::add.Tensor");
  CallOptions o;
  o.tensors = {"cpu:inference", "cpu:inference"};  // trace refuses a call miscounted for the schema
  o.inference_mode = true;
  const Trace t = run(f, o);
  CHECK(set(f, t.calls[0].tensor_union) == "DispatchKeySet(CPU, AutocastCPU)");
  CHECK(rows(f, t) == V{"CPU"});
}

TEST_CASE("trace: autocast runs AutocastCPU first with a fresh call; fallthroughs are skipped") {
  const Fixture f = builtin_op("aten::matmul");
  CallOptions o;
  o.tensors = {"cpu", "cpu"};
  o.autocast = {"cpu"};
  const Trace t = run(f, o);
  REQUIRE(t.hops.size() >= 2);
  CHECK(rows(f, t)[0] == "AutocastCPU");
  CHECK(t.hops[0].action == HopAction::FreshCall);
  CHECK(t.calls.size() == 2);
  CHECK(rows(f, t)[1] == "AutogradCPU");
  // aten::add has a fallthrough AutocastCPU row: masked away even under autocast.
  const Fixture add = builtin_op("aten::add.Tensor");
  CHECK(rows(add, run(add, o)) == V{"AutogradCPU", "CPU"});
}

TEST_CASE("trace: a Meta tensor without a Meta kernel raises the Meta fallback's error") {
  const Fixture f = custom_op({{{"key", "CPU"}, {"kernel", "fn_cpu"}}});
  CallOptions o;
  o.tensors = {"meta"};
  const Trace t = run(f, o);
  CHECK(rows(f, t) == V{"AutogradMeta", "Meta"});
  CHECK(t.outcome == Trace::End::Raised);
  CHECK(t.hops.back().error_type == "NotImplementedError");
  CHECK(t.hops.back().error.rfind("t::op: attempted to run this operator with Meta tensors, but there was no fake impl", 0) == 0);
}

TEST_CASE("trace: missing rows raise PyTorch's text with the live key list and the table") {
  const Fixture f = custom_op({{{"key", "CUDA"}, {"kernel", "fn_cuda"}}}, "builtin:1.13.1", "1.13.1");
  CallOptions o;
  o.tensors = {"cpu"};
  const Trace t = run(f, o);
  CHECK(t.outcome == Trace::End::Raised);
  // Recorded from PyTorch 1.13.1 for the same registration.
  CHECK(t.hops.back().error.rfind(
            "Could not run 't::op' with arguments from the 'CPU' backend. This could be because the "
            "operator doesn't exist for this backend, or was omitted during the selective/custom build "
            "process (if using custom build). If you are a Facebook employee using PyTorch on mobile, "
            "please visit https://fburl.com/ptmfixes for possible resolutions. 't::op' is only "
            "available for these backends: [CUDA, BackendSelect, Python, FuncTorchDynamicLayerBackMode, "
            "Functionalize, Named, Conjugate, Negative, ZeroTensor, ADInplaceOrView, AutogradOther, "
            "AutogradCPU, AutogradCUDA, AutogradXLA, AutogradMPS, AutogradXPU, AutogradHPU, AutogradLazy, "
            "Tracer, AutocastCPU, AutocastCUDA, FuncTorchBatched, FuncTorchVmapMode, Batched, VmapMode, "
            "FuncTorchGradWrapper, PythonTLSSnapshot, FuncTorchDynamicLayerFrontMode, PythonDispatcher]."
            "\n\nCUDA: fn_cuda [kernel]\n",
            0) == 0);
  // 1.13's autograd fallbacks are fallthroughs: masked, so CPU is the first hop.
  CHECK(rows(f, t) == V{"CPU"});
}

TEST_CASE("trace: Undefined cases") {
  SUBCASE("no tensor arguments and no fallback: PyTorch's Undefined message") {
    const Fixture f = custom_op({{{"key", "CPU"}, {"kernel", "fn_cpu"}}});
    CallOptions o;
    o.keysets = {""};  // a tensor without keys (the count the schema takes)
    const Trace t = run(f, o);
    CHECK(rows(f, t) == V{"Undefined"});
    CHECK(t.hops[0].error.rfind("There were no tensor arguments to this function", 0) == 0);
  }
  SUBCASE("a per-op fallthrough on CPU clears Dense: the chain reaches Undefined (§9.1)") {
    const Fixture f = custom_op({{{"key", "CPU"}, {"kernel", ""}, {"fallthrough", true}},
                                 {{"key", "CompositeImplicitAutograd"}, {"kernel", "fn_math"}}});
    CallOptions o;
    o.tensors = {"cpu"};
    const Trace t = run(f, o);
    CHECK(rows(f, t) == V{"AutogradCPU", "Undefined"});
    CHECK(t.hops.back().row.debug() == "fn_math");
    CHECK(t.outcome == Trace::End::Completed);
  }
  SUBCASE("a fallthrough reaching Undefined is called and asserts") {
    const Fixture f = custom_op({{{"key", "CompositeExplicitAutograd"}, {"kernel", ""}, {"fallthrough", true}}});
    CallOptions o;
    o.keysets = {""};
    const Trace t = run(f, o);
    CHECK(t.outcome == Trace::End::Raised);
    // As Debian sid's live 2.14.1 printed it (the exporter's probe, README "release_profile").
    CHECK(t.hops.back().error.rfind("0 INTERNAL ASSERT FAILED at \"./aten/src/ATen/core/boxing/KernelFunction.cpp\":14, "
                                    "please report a bug to PyTorch. fallthrough_kernel was executed", 0) == 0);
  }
}

TEST_CASE("trace: Conjugate, Negative and ZeroTensor fallbacks resolve and redispatch") {
  const Fixture f = custom_op({{{"key", "CPU"}, {"kernel", "fn_cpu"}}});
  CallOptions o;
  o.tensors = {"cpu:conj:neg"};
  const Trace t = run(f, o);
  CHECK(rows(f, t) == V{"AutogradCPU", "Negative", "Conjugate", "CPU"});
  CHECK(t.hops[1].resolves == *f.reg->catalogue().find("Negative"));
  CHECK(set(f, t.hops[2].next) == "DispatchKeySet(CPU)");
  o.tensors = {"cpu:zerotensor"};
  CHECK(rows(f, run(f, o)) == V{"AutogradCPU", "ZeroTensor", "CPU"});
}

TEST_CASE("trace: the Functionalize fallback makes a fresh call and upper kernels run again") {
  const Fixture f = custom_op({{{"key", "CPU"}, {"kernel", "fn_cpu"}}});
  CallOptions o;
  o.tensors = {"cpu:conj"};
  o.tls_include = {"Functionalize"};
  const Trace t = run(f, o);
  CHECK(rows(f, t) == V{"AutogradCPU", "Conjugate", "Functionalize", "AutogradCPU", "CPU"});
  REQUIRE(t.calls.size() == 2);
  // The fresh call sees resolved tensors (no Conjugate) and Functionalize excluded.
  CHECK(set(f, t.calls[1].dispatch) == "DispatchKeySet(CPU, AutogradCPU)");
}

// Expected TLS sets below are what logging kernels printed on Debian's 1.13.1
// (tests/e2e/test_trace_live.py records them live); 2.14.1 has the same guards.
TEST_CASE("trace: VariableType's AutoDispatchBelowADInplaceOrView keeps autograd out of the fresh call") {
  for (const char* release : {"builtin:2.14.1", "builtin:1.13.1"}) {
    CAPTURE(release);
    const Fixture f = builtin_op("aten::add.Tensor", release);
    CallOptions o;
    o.tensors = {"cpu:conj", "cpu"};
    o.tls_include = {"Functionalize"};
    const Trace t = run(f, o);
    // The README example: AutogradCPU runs once, not again after Functionalize.
    const V chain = rows(f, t);
    CHECK(std::count(chain.begin(), chain.end(), "AutogradCPU") == 1);
    CHECK(chain.back() == "CPU");
    CHECK(t.hops[0].guard.name == "AutoDispatchBelowADInplaceOrView");
    REQUIRE(t.calls.size() == 2);
    CHECK(t.calls[1].reason.find("AutoDispatchSkipFunctionalize") != std::string::npos);
    const Hop& leaf = t.hops.back();
    CHECK(set(f, leaf.tls_included) == "DispatchKeySet(BackendSelect, Functionalize, ADInplaceOrView)");
    if (std::string(release) == "builtin:1.13.1")
      CHECK(set(f, leaf.tls_excluded) == "DispatchKeySet(Functionalize, ADInplaceOrView, AutogradOther, "
                                         "AutogradNestedTensor, AutocastCPU, AutocastXPU, AutocastCUDA)");
    const auto j = trace_json(*f.reg, t, {});
    CHECK(j["hops"][0]["guard"]["name"] == "AutoDispatchBelowADInplaceOrView");
    CHECK(j["hops"][0]["action_source"] == "default");
  }
}

TEST_CASE("trace: the Autocast kernel's exclude guard and nested fresh calls (1.13.1)") {
  const Fixture f = builtin_op("aten::mm", "builtin:1.13.1");
  CallOptions o;
  o.tensors = {"cpu", "cpu"};
  o.autocast = {"cpu"};
  o.tls_include = {"Functionalize"};
  const Trace t = run(f, o);
  CHECK(rows(f, t) == V{"AutocastCPU", "AutogradCPU", "Functionalize", "CPU"});
  REQUIRE(t.calls.size() == 3);
  CHECK(t.hops[0].guard.name == "ExcludeDispatchKeyGuard(AutocastCPU)");
  CHECK(set(f, t.hops.back().tls_excluded) ==
        "DispatchKeySet(Functionalize, ADInplaceOrView, AutogradOther, AutogradNestedTensor, AutocastCPU, "
        "AutocastXPU, AutocastCUDA)");
}

TEST_CASE("trace: 2.x's autograd fallback holds no guard and loses the gradients") {
  const Fixture f = custom_op({{{"key", "CPU"}, {"kernel", "fn_cpu"}}});
  CallOptions o;
  o.tensors = {"cpu:requires_grad"};
  const Trace t = run(f, o);
  CHECK(rows(f, t) == V{"AutogradCPU", "CPU"});
  CHECK(t.hops[0].guard.name.empty());
  CHECK(t.hops[0].does.find("autograd-not-implemented fallback") != std::string::npos);
  CHECK(t.hops[0].consequence.find("gradients are missing") != std::string::npos);
  CHECK(t.hops[0].consequence.find("register a kernel at Autograd") != std::string::npos);
  std::string text;
  append_trace_text(text, *f.reg, t, {});
  CHECK(t.hops[0].consequence.find("an autograd kernel was not registered to the Autograd key(s)") !=
        std::string::npos);
  CHECK(text.find("NOTE: gradients are missing") != std::string::npos);
  CHECK(text.find("records autograd history") == std::string::npos);
  // 1.13.1's autograd fallbacks are fallthroughs: masked, never a hop.
  const Fixture old = custom_op({{{"key", "CPU"}, {"kernel", "fn_cpu"}}}, "builtin:1.13.1", "1.13.1");
  CHECK(rows(old, run(old, o)) == V{"CPU"});
}

TEST_CASE("trace: a manifest kernel's \"then\" overrides the default for its kind") {
  CallOptions o;
  o.tensors = {"cpu"};
  SUBCASE("a CompositeImplicitAutograd kernel that redispatches") {
    const Fixture f = custom_op({{{"key", "CPU"}, {"kernel", "fn_cpu"}},
                                 {{"key", "CompositeImplicitAutograd"}, {"kernel", "fn_cia"}, {"then", "redispatch"}}});
    // The CPU kernel blocks the math kernel at AutogradCPU: the fallback runs there.
    const Fixture g = custom_op({{{"key", "CompositeImplicitAutograd"}, {"kernel", "fn_cia"}, {"then", "redispatch"}}});
    // The contract (docs/manifest-format.md): ks & FULL_AFTER(row) at any row, no guard. Below
    // CPU nothing is left, the Undefined row runs the same kernel with the same (empty) set:
    // it would call itself forever, which the trace reports instead of looping.
    const Trace t = run(g, o);
    CHECK(rows(g, t) == V{"AutogradCPU", "CPU", "Undefined"});
    CHECK(t.hops[0].declared);
    CHECK(t.hops[0].assumed == "declared in the manifest (\"then\": \"redispatch\")");
    CHECK(t.hops[0].guard.name.empty());
    CHECK(t.hops[0].mask == g.reg->catalogue().full_after(*g.reg->catalogue().find("AutogradCPU")));
    CHECK(t.hops[1].action == HopAction::Redispatch);
    CHECK(t.hops[2].action == HopAction::Raise);
    CHECK(t.outcome == Trace::End::Raised);
    CHECK(rows(f, run(f, o)) == V{"AutogradCPU", "CPU"});
  }
  SUBCASE("call, decompose and raise") {
    const Fixture f = custom_op({{{"key", "CPU"}, {"kernel", "fn_cpu"}},
                                 {{"key", "AutogradCPU"}, {"kernel", "fn_ag"}, {"then", "call"}}});
    const Trace t = run(f, o);
    CHECK(rows(f, t) == V{"AutogradCPU", "CPU"});
    CHECK(t.hops[0].action == HopAction::FreshCall);
    CHECK(t.calls.size() == 2);
    const Fixture d = custom_op({{{"key", "AutogradCPU"}, {"kernel", "fn_ag"}, {"then", "decompose"}}});
    CHECK(rows(d, run(d, o)) == V{"AutogradCPU"});
    const Fixture r = custom_op({{{"key", "CPU"}, {"kernel", "fn_cpu"}, {"then", "raise"}}});
    CHECK(run(r, o).outcome == Trace::End::Raised);
  }
  SUBCASE("an unknown value is refused with a did-you-mean") {
    CHECK_THROWS_WITH_AS(custom_op({{{"key", "CPU"}, {"kernel", "k"}, {"then", "redispach"}}}),
                         doctest::Contains("did you mean 'redispatch'"), InputError);
  }
}

TEST_CASE("trace: TLS include/exclude and the per-backend fallthrough mask (§9.1)") {
  SUBCASE("TLS include AutogradMeta adds the Meta backend bit: Meta's mask and kernel apply") {
    const Fixture f = custom_op({{{"key", "CPU"}, {"kernel", "fn_cpu"}}, {{"key", "Meta"}, {"kernel", "fn_meta"}}});
    CallOptions o;
    o.tensors = {"cpu"};
    o.tls_include = {"AutogradMeta"};
    const Trace t = run(f, o);
    CHECK(rows(f, t) == V{"AutogradMeta", "Meta"});
    CHECK(f.reg->catalogue().spec().backends[t.calls[0].mask_backend - 1] == "Meta");
  }
  SUBCASE("TLS exclude AutogradCPU removes every Autograd<backend> key") {
    const Fixture f = builtin_op("aten::add.Tensor");
    CallOptions o;
    o.tensors = {"cuda", "cuda"};
    o.tls_exclude = {"AutogradCPU"};
    // CUDA's row is the generated composite, which then calls aten::add.out
    // (missing at CUDA in a CPU-only build): a second call section.
    // (add.out's fresh call meets ADInplaceOrView, in TLS included, on the way).
    const Trace t = run(f, o);
    CHECK(rows(f, t) == V{"CUDA", "ADInplaceOrView", "CUDA"});
    CHECK(t.hops[0].action == HopAction::CallOperator);
    CHECK(t.calls[1].op == "aten::add.out");
  }
  SUBCASE("a per-op fallthrough on AutogradCPU only masks CPU calls") {
    const Fixture f = custom_op({{{"key", "CPU"}, {"kernel", "fn_cpu"}},
                                 {{"key", "CUDA"}, {"kernel", "fn_cuda"}},
                                 {{"key", "AutogradCPU"}, {"kernel", ""}, {"fallthrough", true}}});
    CallOptions o;
    o.tensors = {"cpu"};
    CHECK(rows(f, run(f, o)) == V{"CPU"});
    o.tensors = {"cuda"};
    CHECK(rows(f, run(f, o)) == V{"AutogradCUDA", "CUDA"});
  }
}

TEST_CASE("trace: hops follow the live table and say when it is stale") {
  const Fixture f = custom_op({{{"key", "CompositeImplicitAutograd"}, {"kernel", "fn_math"}},
                               {{"key", "CompositeExplicitAutograd"}, {"kernel", "fn_cea"}}});
  CallOptions o;
  o.tensors = {"cpu"};
  const Trace t = run(f, o);
  CHECK(rows(f, t) == V{"AutogradCPU"});
  CHECK(t.hops[0].row.debug() == "fn_math");
  CHECK(t.hops[0].stale);
  CHECK(t.hops[0].computed.rule == Rule::BackendFallback);
  std::string text;
  append_trace_text(text, *f.reg, t, {});
  CHECK(text.find("STALE: _dispatch_dump_table shows") != std::string::npos);
}

TEST_CASE("trace: ambiguous AutogradOther raises with the operator's state") {
  const Fixture f = custom_op({{{"key", "SparseCPU"}, {"kernel", "fn_sparse"}},
                               {{"key", "CompositeImplicitAutograd"}, {"kernel", "fn_math"}}},
                              "builtin:1.13.1", "1.13.1");
  CallOptions o;
  o.tensors = {"mkldnn_cpu"};
  const Trace t = run(f, o);
  CHECK(rows(f, t) == V{"AutogradOther"});
  CHECK(t.hops[0].error ==
        "0 INTERNAL ASSERT FAILED at \"./aten/src/ATen/core/boxing/KernelFunction.cpp\":23, please report "
        "a bug to PyTorch. t::op has kernels registered to both CompositeImplicitAutograd and a backend "
        "mapped to AutogradOther. This makes the backend kernel unreachable; the dispatcher will always "
        "prefer the CompositeImplicitAutograd lowering (see Note [Ambiguity in AutogradOther kernel]). If "
        "you want to override CompositeImplicitAutograd, please open an issue to request a dedicated "
        "Autograd dispatch key for the backend.\nIf you only want to run inference instead of training, "
        "add `c10::InferenceMode mode;` before model.forward(). Note this guard is only available in C++ "
        "but not Python at present.\nCanonical state\n~~~~~~~~~~~\nname: t::op\nschema: t::op(Tensor x) "
        "-> Tensor\ndebug: \nalias analysis kind: CONSERVATIVE (default)\nSparseCPU: fn_sparse :: (none) "
        "[ boxed unboxed ]\nCompositeImplicitAutograd[alias]: fn_math :: (none) [ boxed unboxed ]\n\n\n");
}

TEST_CASE("trace: bad call input is an InputError with a did-you-mean") {
  const Catalogue& cat = *builtin_catalogue("2.14");
  CallOptions o;
  o.tensors = {"cpy"};
  CHECK_THROWS_WITH_AS(make_call_setup(cat, o), doctest::Contains("did you mean 'cpu'"), InputError);
  o.tensors = {"cpu:conjj"};
  CHECK_THROWS_WITH_AS(make_call_setup(cat, o), doctest::Contains("did you mean 'conj'"), InputError);
  o.tensors = {};
  o.keysets = {"CPU,AutogradCPX"};
  CHECK_THROWS_AS(make_call_setup(cat, o), InputError);
  o.keysets = {};
  o.autocast = {"hip"};
  CHECK_THROWS_AS(make_call_setup(cat, o), InputError);
}

TEST_CASE("trace: --tensor and --keyset lists are read by split_list") {
  const Catalogue& cat = *builtin_catalogue("2.14");
  auto keys_of = [&](std::vector<std::string> tensors, std::vector<std::string> keysets) {
    CallOptions o;
    o.tensors = std::move(tensors);
    o.keysets = std::move(keysets);
    return cat.format(make_call_setup(cat, o).arguments.at(0).keys);
  };
  CHECK_THROWS_WITH_AS(keys_of({"cpu::conj"}, {}),
                       "--tensor cpu::conj: item 2 of 'cpu::conj' is empty; give names separated by single ':', "
                       "e.g. A:B",
                       InputError);
  CHECK(keys_of({"cpu: conj"}, {}) == keys_of({"cpu:conj"}, {}));
  // Empty items are skipped (as before split_list), spaces trimmed (as in every list option).
  CHECK(keys_of({}, {"CPU,, AutogradCPU,"}) == "DispatchKeySet(CPU, AutogradCPU)");
  CHECK(keys_of({}, {""}) == "DispatchKeySet()");
}

}  // namespace dispatchctl
