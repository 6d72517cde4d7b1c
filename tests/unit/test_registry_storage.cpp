// The Registry's storage (issue 14): pooled strings, the name index and the
// per-key kernel lists keep what was registered, in order, as the registry grows.
#include <doctest/doctest.h>

#include <string>

#include "keys/catalogue.h"
#include "builtin/builtin_catalogues.h"
#include "registry/registry.h"

using namespace dispatchctl;

TEST_CASE("registry storage: a registered string outlives the caller's copy") {
  Registry registry(*builtin_catalogue("2.14.1"), "2.14.1");
  const Key cpu = *registry.catalogue().find("CPU");
  for (int i = 0; i < 3000; ++i) {  // enough to fill several pool blocks and grow the index
    std::string name = "x::op_" + std::to_string(i);
    std::string debug = std::string(200, 'd') + std::to_string(i);
    std::string file = "file.json", pointer = "/operators/" + name;
    Kernel kernel;
    kernel.key = cpu;
    kernel.debug = debug;
    kernel.origin = Origin{file, pointer, 0};
    registry.impl(name, kernel);
    for (std::string* s : {&name, &debug, &file, &pointer}) s->assign(s->size(), '?');
  }
  REQUIRE(registry.operators().size() == 3000);
  for (int i : {0, 1, 1234, 2999}) {
    const Operator* op = registry.find("x::op_" + std::to_string(i));
    REQUIRE(op != nullptr);
    CHECK(op->name == "x::op_" + std::to_string(i));
    CHECK(op->registrations[0].debug == std::string(200, 'd') + std::to_string(i));
    CHECK(op->registrations[0].origin.to_string() == "file.json: /operators/x::op_" + std::to_string(i));
  }
  CHECK(registry.find("x::op_3000") == nullptr);
  // One file name kept for all 3000 origins.
  CHECK(registry.operators()[0].registrations[0].origin.file().data() ==
        registry.operators()[2999].registrations[0].origin.file().data());
}

TEST_CASE("registry storage: a key's kernels newest first, viewed from the registrations") {
  Registry registry(*builtin_catalogue("2.14.1"), "2.14.1");
  const Key cpu = *registry.catalogue().find("CPU"), meta = *registry.catalogue().find("Meta");
  for (const char* debug : {"a", "b", "c", "d"}) {
    Kernel kernel;
    kernel.key = debug[0] == 'b' ? meta : cpu;
    kernel.debug = debug;
    registry.impl("x::op", kernel);
  }
  const Operator& op = *registry.find("x::op");
  std::string order;
  for (auto index : op.kernels_at(cpu)) order += op.registrations[index].debug;
  CHECK(order == "dca");
  CHECK(op.kernels_at(meta).size() == 1);
  CHECK(op.active(meta)->debug == "b");
  const Registry copy = registry;  // shares the pool: its views stay valid
  CHECK(copy.find("x::op")->active(cpu)->debug == "d");
}
