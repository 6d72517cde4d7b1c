// Issue 23: torchgen's predictions of a CUDA build, measured against the real
// one (builtin:2.6.0+cuda, Debian's python3-torch-cuda 2.6.0) from that
// release's own YAML (tests/data/torch-2.6.0+cuda/torchgen, from Debian
// trixie's python3-torch 2.6.0+dfsg-7, the same source).
#include <doctest/doctest.h>

#include <set>
#include <string>
#include <tuple>

#include "load/load_registry.h"
#include "torchgen/apply.h"
#include "torchgen/predict.h"
#include "torchgen/release_rules.h"
#include "torchgen_support.h"

using namespace dispatchctl;

namespace {

using Registration = std::pair<std::string, std::string>;  // operator, key

std::set<Registration> real_codegen_registrations(const Registry& registry) {
  std::set<Registration> out;
  for (const Operator& op : registry.operators())
    for (const Kernel& k : op.registrations)
      if (k.source.built_by_torchgen()) out.insert({std::string(op.name), registry.catalogue().name(k.key)});
  return out;
}

std::set<Registration> predicted(const torchgen::ReleaseRules& rules, const Catalogue& catalogue) {
  const std::set<std::string> build = {"CPU", "CUDA"};
  torchgen::ParseOptions options{&rules, &catalogue, build};
  torchgen::TorchgenModel model = torchgen::parse_torchgen_inputs(test::torchgen_inputs("2.6.0+cuda"), options);
  torchgen::add_generated_functions(model, rules);
  std::set<Registration> out;
  for (const auto& r : torchgen::predict(model, rules, torchgen::compiled_keys(rules, build)).registrations)
    out.insert({r.op, r.key});
  return out;
}

struct Score {
  size_t both = 0, predicted = 0, real = 0;
};
Score score(const std::set<Registration>& predicted, const std::set<Registration>& real) {
  Score s{0, predicted.size(), real.size()};
  for (const auto& r : predicted) s.both += real.count(r);
  return s;
}

}  // namespace

TEST_CASE("torchgen, CUDA build of 2.6.0: its own rules predict every codegen registration, nothing else") {
  auto real = load_registry({"builtin:2.6.0+cuda"});
  const torchgen::ReleaseRules* rules = torchgen::rules_for_release("2.6.0");
  REQUIRE(rules);
  const Score s = score(predicted(*rules, real->catalogue()), real_codegen_registrations(*real));
  CHECK(s.real > 14000);
  CHECK(s.both == s.real);       // recall 1
  CHECK(s.both == s.predicted);  // precision 1
}

TEST_CASE("torchgen, CUDA build of 2.6.0: the nearest other rules (2.14's) reach precision and recall 0.99") {
  auto real = load_registry({"builtin:2.6.0+cuda"});
  const torchgen::ReleaseRules* rules = torchgen::rules_for_release("2.14.1");
  REQUIRE(rules);
  const Score s = score(predicted(*rules, real->catalogue()), real_codegen_registrations(*real));
  CHECK(static_cast<double>(s.both) / static_cast<double>(s.predicted) >= 0.99);  // measured 0.9954
  CHECK(static_cast<double>(s.both) / static_cast<double>(s.real) >= 0.99);       // measured 1.0
}

// Another build of the base's own release: only the added backends' keys
// change. 1.13's rules predict 12,636 of its 12,652 codegen registrations, yet
// every real registration stays, in order, and what is added sits at a CUDA key.
TEST_CASE("torchgen over a CPU-only build, CUDA added: the base comes through whole, even with inexact rules") {
  auto base = load_registry({"builtin:1.13.1"});
  auto layered = load_registry({"builtin:1.13.1", "torchgen:" + test::torchgen_dir("1.13.1") + "?build-backends=CPU,CUDA"});
  const auto& cuda_keys = torchgen::rules_for_release("1.13.1")->backend_keys.at("CUDA");
  REQUIRE(layered->operators().size() == base->operators().size());
  size_t added = 0;
  for (const Operator& op : base->operators()) {
    CAPTURE(op.name);
    const Operator* l = layered->find(op.name);
    REQUIRE(l);
    size_t next = 0;
    for (const Kernel& k : l->registrations) {
      if (next < op.registrations.size() && k.key == op.registrations[next].key &&
          k.debug == op.registrations[next].debug) {
        ++next;
        continue;
      }
      ++added;
      CHECK(cuda_keys.count(layered->catalogue().name(k.key)));
      CHECK(std::string_view(k.debug).find("[predicted: torchgen ") != std::string_view::npos);
    }
    CHECK(next == op.registrations.size());
  }
  CHECK(added > 1000);
}
