// The key catalogue against PyTorch's own enum (tests/data/*/keys.txt) and
// the alias-set sizes verified on real builds (docs/dispatch-semantics.md §2, §8.2).
#include <doctest/doctest.h>

#include <sstream>

#include "keys/catalogue.h"
#include "builtin/builtin_catalogues.h"
#include "test_support.h"

using namespace dispatchctl;

namespace {
std::vector<std::string> names(const Catalogue& cat, const std::vector<Key>& keys) {
  std::vector<std::string> out;
  for (Key k : keys) out.push_back(cat.name(k));
  return out;
}
Key key(const Catalogue& cat, std::string_view name) {
  auto k = cat.find(name);
  REQUIRE_MESSAGE(k.has_value(), name);
  return *k;
}
}  // namespace

TEST_CASE("Catalogue: every enum value prints as PyTorch's toString (keys.txt)") {
  for (std::string version : {"2.14.1", "1.13.1"}) {
    CAPTURE(version);
    const Catalogue& cat = *builtin_catalogue(version);
    std::istringstream lines(test::read_test_data("torch-" + version + "/keys.txt"));
    std::string line;
    std::getline(lines, line);  // header
    int count = 0;
    while (std::getline(lines, line)) {
      std::istringstream fields(line);
      int value;
      std::string printed;
      fields >> value >> printed;
      REQUIRE(value < cat.key_count());
      CHECK(cat.name(static_cast<Key>(value)) == printed);
      ++count;
    }
    CHECK(count == cat.key_count());
  }
}

TEST_CASE("Catalogue: runtime keys in table order") {
  const Catalogue& current = *builtin_catalogue("2.14");
  CHECK(current.runtime_keys().size() == 137);
  CHECK(current.name(current.runtime_keys()[1]) == "CPU");
  CHECK(current.name(current.runtime_keys()[16]) == "Meta");  // Meta is the last backend in 2.x
  CHECK(current.name(current.runtime_keys().back()) == "PythonDispatcher");
  const Catalogue& old = *builtin_catalogue("1.13");
  CHECK(old.runtime_keys().size() == 106);
  CHECK(old.name(old.runtime_keys()[11]) == "Meta");  // Meta before PrivateUse1 in 1.13
  // Table order is the line order of _dispatch_dump_table (checked on a full table).
  const auto tables = test::split_blocks(test::read_test_data("torch-2.14.1/computed_tables.txt.gz"));
  std::istringstream table(tables.at("aten::add.Tensor"));
  std::vector<std::string> printed;
  for (std::string line; std::getline(table, line);) printed.push_back(line.substr(0, line.find(':')));
  std::vector<std::string> expected;
  for (Key k : current.runtime_keys())
    if (std::find(printed.begin(), printed.end(), current.name(k)) != printed.end())
      expected.push_back(current.name(k));
  CHECK(printed == expected);
}

TEST_CASE("Catalogue: alias sets have the verified sizes") {
  struct Expect { const char* version; const char* alias; size_t count; };
  for (auto e : {Expect{"2.14", "Autograd", 18}, {"2.14", "CompositeImplicitAutograd", 103},
                 {"2.14", "CompositeImplicitAutogradNestedTensor", 17},
                 {"2.14", "CompositeExplicitAutograd", 69},
                 {"2.14", "CompositeExplicitAutogradNonFunctional", 47},
                 {"2.14", "FuncTorchBatchedDecomposition", 1}, {"1.13", "Autograd", 16},
                 {"1.13", "CompositeImplicitAutograd", 80},
                 {"1.13", "CompositeImplicitAutogradNestedTensor", 15},
                 {"1.13", "CompositeExplicitAutograd", 50},
                 {"1.13", "CompositeExplicitAutogradNonFunctional", 32}}) {
    CAPTURE(e.version);
    CAPTURE(e.alias);
    const Catalogue& cat = *builtin_catalogue(e.version);
    CHECK(cat.alias_runtime_keys(key(cat, e.alias)).size() == e.count);
  }
  CHECK_FALSE(builtin_catalogue("1.13")->find("FuncTorchBatchedDecomposition"));
  // CEANF leaves out Sparse* and the XLA/Lazy instances (§2).
  const Catalogue& cat = *builtin_catalogue("2.14");
  const Key ceanf = key(cat, "CompositeExplicitAutogradNonFunctional");
  CHECK_FALSE(cat.included_in_alias(key(cat, "XLA"), ceanf));
  CHECK_FALSE(cat.included_in_alias(key(cat, "SparseCPU"), ceanf));
  CHECK_FALSE(cat.included_in_alias(key(cat, "SparseCsrLazy"), ceanf));
  CHECK(cat.included_in_alias(key(cat, "SparseCsrCPU"), ceanf));
  CHECK_FALSE(cat.included_in_alias(key(cat, "NestedTensorCPU"), key(cat, "CompositeExplicitAutograd")));
}

TEST_CASE("Catalogue: key set operations of §1.8 and the §5.4 example") {
  const Catalogue& cat = *builtin_catalogue("2.14");
  const KeySet tensor = cat.set_of({"CPU", "ADInplaceOrView", "AutogradCPU", "AutocastCPU"});
  CHECK(cat.format(tensor) == "DispatchKeySet(CPU, ADInplaceOrView, AutogradCPU, AutocastCPU)");
  CHECK(cat.name(cat.highest_priority(tensor)) == "AutocastCPU");
  const KeySet masked = cat.set_of({"CPU", "AutogradCPU"});
  CHECK(cat.name(cat.highest_priority(masked)) == "AutogradCPU");
  const KeySet after = masked & cat.full_after(key(cat, "AutogradOther"));
  CHECK(cat.format(after) == "DispatchKeySet(CPU)");
  // '-' removes functionality bits only, never backend bits.
  CHECK(cat.format(cat.minus(masked, cat.bit(key(cat, "AutogradCPU")))) == "DispatchKeySet(CPU)");
  CHECK(cat.minus(cat.bit(key(cat, "CPU")), cat.bit(key(cat, "CPU"))).repr != 0);
  // Highest backend wins: CPU and CUDA bits with AutogradFunctionality -> AutogradCUDA.
  CHECK(cat.name(cat.highest_priority(cat.set_of({"AutogradCPU", "CUDA"}))) == "AutogradCUDA");
  CHECK(cat.format(KeySet{}) == "DispatchKeySet()");
  // has() is a superset test: alias keys are always "in", Dense is in {CPU}.
  CHECK(cat.has(KeySet{}, key(cat, "CompositeImplicitAutograd")));
  CHECK(cat.has(cat.bit(key(cat, "CPU")), key(cat, "Dense")));
  // Building blocks answer for their CPU slot.
  CHECK(cat.table_index(cat.bit(key(cat, "Dense"))) == cat.table_index(cat.bit(key(cat, "CPU"))));
}

TEST_CASE("Catalogue: autograd helper tables and their quirks (§2)") {
  const Catalogue& cat = *builtin_catalogue("2.14");
  CHECK(cat.format(cat.backend_set_from_autograd(key(cat, "AutogradCPU"))) == "DispatchKeySet(CPU)");
  CHECK(cat.backend_set_from_autograd(key(cat, "AutogradHIP")).empty());
  CHECK(cat.backend_set_from_autograd(key(cat, "AutogradVE")).empty());
  CHECK(cat.backend_set_from_autograd(key(cat, "AutogradMTIA")).empty());
  CHECK(cat.backend_set_from_autograd(key(cat, "CPU")).empty());
  CHECK(cat.name(cat.autograd_key_from_backend(*cat.backend_index("HIP"))) == "AutogradOther");
  CHECK(cat.name(cat.autograd_key_from_backend(*cat.backend_index("XLA"))) == "AutogradXLA");
  CHECK(cat.is_backend_dispatch_key(key(cat, "Dense")));
  CHECK_FALSE(cat.is_backend_dispatch_key(key(cat, "NestedTensorCPU")));
  const Catalogue& old = *builtin_catalogue("1.13");
  CHECK_FALSE(old.backend_set_from_autograd(key(old, "AutogradMeta")).empty());
  CHECK(old.has(old.autogradother_backends(), key(old, "SparseCsrCPU")));
  CHECK(old.has(old.autogradother_backends(), key(old, "ORT")));
}

TEST_CASE("Catalogue: Python's parse table is narrower than the printed names (§1.7)") {
  const Catalogue& cat = *builtin_catalogue("2.14");
  CHECK(cat.python_parseable("AutogradCPU"));
  CHECK_FALSE(cat.python_parseable("AutogradHIP"));
  CHECK_FALSE(cat.python_parseable("QuantizedMeta"));
  CHECK(cat.find("QuantizedMeta").has_value());  // manifests accept every printed name
  CHECK_FALSE(cat.find("CatchAll").has_value());
  CHECK(builtin_catalogue("2.14.1") == &cat);
  CHECK(builtin_catalogue("2.1") == nullptr);
  CHECK(builtin_catalogue("2.140") == nullptr);
}
