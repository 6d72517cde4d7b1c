// Issue 23: builtin:2.14.1+cuda, 2.14.1's CUDA build predicted at build time
// (lib/builtin/gen/predict_tool.cpp) from the real CPU-only registry, the
// release's own YAML (tests/data/torch-2.14.1/torchgen, read here by the YAML
// parser, not by the prediction) and the real 2.6.0 CUDA build.
#include <doctest/doctest.h>

#include <string>

#include "builtin/builtin.h"
#include "load/load_registry.h"
#include "table/table.h"
#include "torchgen/inputs.h"
#include "torchgen/release_rules.h"
#include "torchgen_support.h"

using namespace dispatchctl;

namespace {
bool contains(std::string_view text, std::string_view part) { return text.find(part) != std::string_view::npos; }
}  // namespace

TEST_CASE("predicted CUDA build: every operator whose YAML dispatch names a CUDA key has a kernel row there") {
  const BuiltinRegistry* predicted = find_builtin("builtin:2.14.1+cuda");
  REQUIRE(predicted);
  CHECK_FALSE(predicted->predicted_from.empty());
  CHECK(predicted->build == "CUDA");
  auto registry = load_registry({"builtin:2.14.1+cuda"});
  const Catalogue& cat = registry->catalogue();
  const torchgen::ReleaseRules& rules = *torchgen::rules_for_release("2.14.1");
  const auto& cuda_keys = rules.backend_keys.at("CUDA");
  torchgen::ParseOptions options{&rules, &cat, {"CPU", "CUDA"}};
  const torchgen::TorchgenModel model = torchgen::parse_torchgen_inputs(test::torchgen_inputs("2.14.1"), options);
  size_t checked = 0, with_kernel_row = 0;
  std::string first_missing;
  for (const auto& f : model.functions)
    for (const auto& [key, structured] : f.dispatch) {
      if (!cuda_keys.count(key)) continue;
      ++checked;
      const Operator* op = registry->find("aten::" + f.name());
      const Row row = op ? compute_row(*registry, *op, *cat.find(key)) : Row{};
      if (op && row.rule == Rule::Direct) ++with_kernel_row;
      else if (first_missing.empty()) first_missing = f.name() + " at " + key + " (" + f.loc.to_string() + ")";
    }
  CHECK(checked > 1000);
  CHECK_MESSAGE(with_kernel_row == checked, first_missing);
}

TEST_CASE("predicted CUDA build: the real CPU-only registry comes through; what is added says it is predicted") {
  auto real = load_registry({"builtin:2.14.1"});
  auto predicted = load_registry({"builtin:2.14.1+cuda"});
  REQUIRE(real->operators().size() == predicted->operators().size());
  size_t generated = 0, carried = 0;
  for (const Operator& op : real->operators()) {
    CAPTURE(op.name);
    const Operator* p = predicted->find(op.name);
    REQUIRE(p);
    CHECK((op.schema.has_value() == p->schema.has_value() && (!op.schema || op.schema->text == p->schema->text)));
    // The real registrations, in their order, and between them only predicted ones
    // (each generated one before the hand-written ones at its key).
    size_t next = 0;
    for (const Kernel& k : p->registrations) {
      if (next < op.registrations.size() && k.key == op.registrations[next].key &&
          k.debug == op.registrations[next].debug) {
        ++next;
        continue;
      }
      CHECK_MESSAGE(contains(k.debug, "predicted"), k.debug);
      if (contains(k.debug, "[predicted: torchgen ")) {
        ++generated;
        CHECK_MESSAGE(contains(k.debug, "native_functions.yaml.gz:"), k.debug);  // the YAML line
      } else {
        ++carried;
        CHECK_MESSAGE(contains(k.debug, "(predicted: carried from the 2.6.0 CUDA build)"), k.debug);
      }
    }
    CHECK(next == op.registrations.size());
  }
  CHECK(generated > 1000);
  CHECK(carried > 0);
}
