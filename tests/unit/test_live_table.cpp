// Live-table replay (docs/dispatch-semantics.md §3.3, §9) against golden data
// recorded from real PyTorch 1.13.1 (tests/data/live/generate.py).
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "live/live_table.h"
#include "builtin/builtin_catalogues.h"
#include "registry/manifest.h"
#include "load/load_registry.h"
#include "table/torch_text.h"
#include "test_support.h"
#include "trace/trace.h"

namespace dispatchctl {
namespace {

// A registry with the real fallbacks of `builtin` plus one operator whose
// kernels arrive in the given order.
std::unique_ptr<Registry> with_op(const std::string& builtin, const std::string& version,
                                  const std::string& op, const nlohmann::json& kernels) {
  auto reg = load_registry({builtin});
  nlohmann::json m = {{"dispatchctl_manifest", 1},
                      {"torch_version", version},
                      {"operators", {{{"name", op}, {"schema", op + "(Tensor x) -> Tensor"}, {"kernels", kernels}}}}};
  apply_manifest(*reg, read_manifest(m.dump(), "test.json", {builtin_releases()}));
  return reg;
}

std::vector<std::string> stale_names(const Registry& reg, const LiveTable& live) {
  std::vector<std::string> out;
  for (Key k : live.stale_keys()) out.push_back(reg.catalogue().name(k));
  return out;
}

}  // namespace

TEST_CASE("live: CIA before CEA leaves the autograd rows running the math kernel (2.14.1)") {
  auto reg = with_op("builtin:2.14.1", "2.14.1", "t::f",
                     {{{"key", "CompositeImplicitAutograd"}, {"kernel", "fn_math"}},
                      {{"key", "CompositeExplicitAutograd"}, {"kernel", "fn_cea"}}});
  const Operator& op = *reg->find("t::f");
  const LiveTable live = replay_live_table(*reg, op);
  const Key autograd_cpu = *reg->catalogue().find("AutogradCPU");
  CHECK(live.is_stale(autograd_cpu));
  CHECK(live.live(autograd_cpu).rule == Rule::CompositeImplicitAutograd);
  CHECK(live.recomputed(autograd_cpu).rule == Rule::BackendFallback);
  CHECK(stale_reason(*reg, op, live, autograd_cpu).find("CompositeImplicitAutograd registration") !=
        std::string::npos);
  // The same registrations the other way round: nothing stale.
  auto other = with_op("builtin:2.14.1", "2.14.1", "t::f",
                       {{{"key", "CompositeExplicitAutograd"}, {"kernel", "fn_cea"}},
                        {{"key", "CompositeImplicitAutograd"}, {"kernel", "fn_math"}}});
  CHECK(replay_live_table(*other, *other->find("t::f")).stale_keys().empty());
}

TEST_CASE("live: a building block after CIA leaves every Autograd<backend> row stale (§9)") {
  auto reg = with_op("builtin:2.14.1", "2.14.1", "t::g",
                     {{{"key", "CompositeImplicitAutograd"}, {"kernel", "fn_math"}},
                      {{"key", "Dense"}, {"kernel", "fn_dense"}}});
  const LiveTable live = replay_live_table(*reg, *reg->find("t::g"));
  const auto stale = stale_names(*reg, live);
  // Every Autograd<backend> whose backend set is a Dense key (not HIP/VE/MTIA).
  CHECK(stale.size() == 13);
  CHECK(std::find(stale.begin(), stale.end(), "AutogradCPU") != stale.end());
  CHECK(std::find(stale.begin(), stale.end(), "AutogradHIP") == stale.end());
  CHECK(std::find(stale.begin(), stale.end(), "AutogradOther") == stale.end());
}

TEST_CASE("live: fallthrough masks are per backend and come from the live rows") {
  auto reg = with_op("builtin:2.14.1", "2.14.1", "t::h",
                     {{{"key", "CPU"}, {"kernel", "fn_cpu"}},
                      {{"key", "AutogradCPU"}, {"kernel", ""}, {"fallthrough", true}}});
  const Catalogue& cat = reg->catalogue();
  const LiveTable live = replay_live_table(*reg, *reg->find("t::h"));
  const Key autograd = cat.well_known().autograd_functionality;
  CHECK_FALSE(cat.has(live.fallthrough_mask(*cat.backend_index("CPU")), autograd));
  CHECK(cat.has(live.fallthrough_mask(*cat.backend_index("CUDA")), autograd));
  // BackendSelect's startup fallback is a fallthrough: cleared in every backend's mask.
  CHECK_FALSE(cat.has(live.fallthrough_mask(*cat.backend_index("CUDA")), *cat.find("BackendSelect")));
}

TEST_CASE("live: replay of the real registries in import order has no stale row") {
  for (const char* builtin : {"builtin:2.14.1", "builtin:1.13.1"}) {
    auto reg = load_registry({builtin});
    for (const char* name : {"aten::add.Tensor", "aten::matmul", "aten::linear", "aten::conj"}) {
      const Operator* op = reg->find(name);
      REQUIRE(op);
      CHECK(replay_live_table(*reg, *op).stale_keys().empty());
    }
  }
}

TEST_CASE("live: golden data from PyTorch 1.13.1 (registration order, live answers, real calls)") {
  const auto golden = nlohmann::json::parse(test::read_test_data("live/torch-1.13.1.json"));
  for (const auto& scenario : golden["scenarios"]) {
    const std::string name = scenario["name"];
    CAPTURE(name);
    nlohmann::json kernels = nlohmann::json::array();
    for (const auto& r : scenario["registrations"]) {
      const std::string key = r["key"];
      kernels.push_back({{"key", key.empty() ? "Undefined" : key}, {"kernel", r["kernel"]}});
    }
    auto reg = with_op("builtin:1.13.1", "1.13.1", "live::" + name + "_t", kernels);
    const Catalogue& cat = reg->catalogue();
    const Operator& op = *reg->find("live::" + name + "_t");
    const LiveTable live = replay_live_table(*reg, op);

    std::string table;
    append_torch_table(table, cat, live.computed);
    CHECK(table == scenario["dump_table"].get<std::string>());
    // _dispatch_has_computed_kernel_for_dispatch_key answers from the live table.
    for (const auto& item : scenario["has_computed"].items()) {
      // Not structured bindings: clang 14 (the sanitizer build) cannot capture one in CAPTURE's lambda.
      const std::string& key_name = item.key();
      const auto& expected = item.value();
      CAPTURE(key_name);
      CHECK(live.live(*cat.find(key_name)).valid() == expected.get<bool>());
    }
    // Where PyTorch's invariant check raises, we see stale rows (we compare
    // kernels, so we may see more than it does, never fewer).
    if (scenario["check_invariants"] == "raised") CHECK_FALSE(live.stale_keys().empty());
    // Real calls run the live row: the trace must end in the kernel that ran.
    for (const auto& item : scenario["calls"].items()) {
      const std::string& preset = item.key();
      const auto& call = item.value();
      CAPTURE(preset);
      CallOptions options;
      options.tensors = {preset};
      const Trace trace = trace_call(*reg, op, make_call_setup(cat, options), live);
      if (call.contains("error_type")) {
        CHECK(trace.outcome == Trace::End::Raised);
        CHECK(trace.hops.back().error_type == call["error_type"].get<std::string>());
      } else {
        REQUIRE(call["ran"].size() == 1);
        CHECK(trace.outcome == Trace::End::Completed);
        CHECK(trace.hops.back().row.debug() == call["ran"][0].get<std::string>());
      }
    }
  }
}

}  // namespace dispatchctl
