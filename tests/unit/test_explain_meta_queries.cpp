// Acceptance: for every operator of both real registries, has-kernel and
// has-kernel --computed for Meta answer as real PyTorch did
// (tests/data/torch-*/meta_queries.json.gz), and `query --key Meta
// --registered/--computed` list exactly the operators PyTorch said yes for.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>
#include <set>

#include "query/predicates.h"
#include "load/load_registry.h"
#include "test_support.h"

using namespace dispatchctl;

TEST_CASE("explain: has-kernel and query for Meta agree with real PyTorch on every operator") {
  for (std::string version : {"2.14.1", "1.13.1"}) {
    CAPTURE(version);
    const auto golden = nlohmann::json::parse(test::read_test_data("torch-" + version + "/meta_queries.json.gz"));
    auto registry = load_registry({"builtin:" + version});
    const Key meta = *registry->catalogue().find("Meta");
    REQUIRE(golden.size() == registry->operators().size());

    std::set<std::string> registered_yes, computed_yes;
    size_t agree = 0;
    std::string first_difference;
    for (const auto& item : golden.items()) {
      // Not a structured binding: clang 14 (the sanitizer build) cannot capture one in REQUIRE's lambda.
      const std::string& name = item.key();
      const auto& answers = item.value();
      const Operator* op = registry->find(name);
      REQUIRE_MESSAGE(op != nullptr, name);
      const bool has = answers["has_kernel_for_dispatch_key"].get<bool>();
      const bool computed = answers["has_computed_kernel_for_dispatch_key"].get<bool>();
      if (has) registered_yes.insert(name);
      if (computed) computed_yes.insert(name);
      if (has_kernel_for_dispatch_key(*op, meta) == has &&
          has_computed_kernel_for_dispatch_key(*registry, *op, meta) == computed)
        ++agree;
      else if (first_difference.empty())
        first_difference = name;
    }
    CHECK_MESSAGE(agree == golden.size(), first_difference);

    Query registered;
    registered.key = meta;
    registered.registered = true;
    std::set<std::string> listed;
    for (const Operator* op : run_query(*registry, registered)) listed.insert(op->name);
    CHECK(listed == registered_yes);

    Query computed;
    computed.key = meta;
    computed.computed = true;
    listed.clear();
    for (const Operator* op : run_query(*registry, computed)) listed.insert(op->name);
    CHECK(listed == computed_yes);
  }
}

TEST_CASE("explain: the README's counts of the real registries' Meta answers") {
  // tests/data/torch-2.14.1/README.md: (False, True) 2017, (True, True) 1623;
  // a Meta fallback exists, so every operator has a computed Meta row.
  auto registry = load_registry({"builtin:2.14.1"});
  const Key meta = *registry->catalogue().find("Meta");
  Query q;
  q.key = meta;
  q.registered = true;
  CHECK(run_query(*registry, q).size() == 1623);
  q.registered = false;
  q.computed = true;
  CHECK(run_query(*registry, q).size() == 3640);
  // 524 rows are the Meta backend fallback, which raises: they do not work;
  // neither do the generated composites that call into one of those rows.
  q.computed = false;
  q.fails = true;
  const auto failing = run_query(*registry, q);
  q.fails = false;
  // Two more raise: hand-written composites recorded raising on meta tensors
  // whatever the input (convolution_overrideable's stub, symm_mem::_rendezvous).
  q.outcomes = {Outcome::Raises};
  CHECK(run_query(*registry, q).size() == 524 + 2);
  q.outcomes = {Outcome::CompositeFails};
  CHECK(failing.size() == 524 + 2 + run_query(*registry, q).size());
  q.outcomes.clear();
  q.fails = false;
  q.tags = {"backend_fallback"};
  CHECK(run_query(*registry, q).size() == 524);
}
