// torchgen predictions against the real registries (docs/torchgen-rules.md
// headline): every codegen registration of 2.14.1, every schema text, and
// 1.13.1 without its derivatives.yaml.
#include <doctest/doctest.h>

#include <map>
#include <set>

#include "load/load_registry.h"
#include "torchgen/apply.h"
#include "torchgen_support.h"

using namespace dispatchctl;
using namespace dispatchctl::torchgen;

namespace {

using Pair = std::pair<std::string, std::string>;  // operator, key

std::set<Pair> real_codegen(const Registry& registry) {
  std::set<Pair> out;
  for (const auto& op : registry.operators())
    for (const auto& k : op.registrations)
      if (k.source.built_by_torchgen()) out.emplace(op.name, registry.catalogue().name(k.key));
  return out;
}

std::set<Pair> predicted_pairs(const Predictions& p) {
  std::set<Pair> out;
  for (const auto& r : p.registrations) out.emplace(r.op, r.key);
  return out;
}

std::string sample(const std::set<Pair>& a, const std::set<Pair>& b) {
  std::string s;
  int n = 0;
  for (const auto& x : a)
    if (!b.count(x) && n++ < 12) s += "  " + x.first + " @ " + x.second + "\n";
  return s;
}

}  // namespace

TEST_CASE("torchgen 2.14.1: predicted codegen registrations equal the real registry's, key by key") {
  auto registry = load_registry({"builtin:2.14.1"});
  const Predictions p = test::predict_release("2.14.1");
  const auto real = real_codegen(*registry);
  const auto predicted = predicted_pairs(p);
  CHECK(real.size() == 12883);
  CHECK_MESSAGE(predicted == real, "missed:\n" << sample(real, predicted) << "extra:\n" << sample(predicted, real));
}

TEST_CASE("torchgen 2.14.1: every torchgen operator's schema prints as the dispatcher prints it") {
  auto registry = load_registry({"builtin:2.14.1"});
  const Predictions p = test::predict_release("2.14.1");
  std::map<std::string, std::string> real;
  for (const auto& op : registry->operators())
    if (op.schema && op.schema->debug.find("RegisterSchema.cpp") != std::string::npos && op.name != "aten::get_gradients")
      real[op.name] = op.schema->text;
  std::map<std::string, std::string> predicted;
  for (const auto& op : p.operators) predicted[op.name] = op.schema;
  CHECK(real.size() == 3103);
  std::string diff;
  for (const auto& [name, text] : real)
    if (predicted[name] != text && diff.size() < 2000) diff += "real " + text + "\npred " + predicted[name] + "\n";
  for (const auto& [name, text] : predicted)
    if (!real.count(name) && diff.size() < 2000) diff += "extra " + name + "\n";
  CHECK_MESSAGE(diff.empty(), diff);
}

TEST_CASE("torchgen 1.13.1 without derivatives.yaml: at least 12,636 of 12,652 codegen registrations") {
  auto registry = load_registry({"builtin:1.13.1"});
  const Predictions p = test::predict_release("1.13.1");
  const auto real = real_codegen(*registry);
  const auto predicted = predicted_pairs(p);
  size_t hit = 0;
  for (const auto& x : real) hit += predicted.count(x);
  CHECK(real.size() == 12652);
  CHECK_MESSAGE(hit >= 12636, "missed:\n" << sample(real, predicted));
  size_t false_positives = predicted.size() - hit;
  CHECK_MESSAGE(false_positives <= 1, "extra:\n" << sample(predicted, real));
  std::map<std::string, std::string> schemas;
  for (const auto& op : p.operators) schemas[op.name] = op.schema;
  size_t schema_equal = 0, torchgen_ops = 0;
  for (const auto& op : registry->operators())
    if (op.schema && op.schema->debug.find("RegisterSchema.cpp") != std::string::npos && op.name != "aten::get_gradients") {
      ++torchgen_ops;
      schema_equal += schemas[op.name] == op.schema->text;
    }
  CHECK(torchgen_ops == 2952);
  CHECK(schema_equal == torchgen_ops);
}

TEST_CASE("torchgen: registrations each rule explains, as docs/torchgen-rules.md §3 counts them") {
  auto counts = [](const Predictions& p) {
    std::map<std::string, int> c;
    for (const auto& r : p.registrations) c[r.rule]++;
    return c;
  };
  const std::map<std::string, int> expected_2_14 = {
      {"dispatch-entry", 1981}, {"default-cia", 651}, {"structured-backend", 664}, {"structured-meta", 666},
      {"structured-ceanf", 388}, {"inplace-meta", 37}, {"generated-cea", 518}, {"backend-select", 81},
      {"functionalize-mutating", 1225}, {"functionalize-view", 100}, {"autograd", 2362},
      {"autograd-dispatch-key", 27}, {"ad-inplace-or-view", 1095}, {"tracer", 3088}};
  CHECK(counts(test::predict_release("2.14.1")) == expected_2_14);
  // 1.13.1 has no derivatives.yaml: every autograd kernel goes on Autograd (16 missed, 1 extra).
  const std::map<std::string, int> expected_1_13 = {
      {"dispatch-entry", 1421}, {"default-cia", 841}, {"structured-backend", 650}, {"structured-meta", 650},
      {"structured-ceanf", 380}, {"inplace-meta", 34}, {"generated-cea", 459}, {"backend-select", 80},
      {"backend-select-template", 2}, {"functionalize-mutating", 1388}, {"functionalize-view", 110},
      {"functionalize-cia", 528}, {"autograd", 2098}, {"ad-inplace-or-view", 1059}, {"tracer", 2937}};
  CHECK(counts(test::predict_release("1.13.1")) == expected_1_13);
}
