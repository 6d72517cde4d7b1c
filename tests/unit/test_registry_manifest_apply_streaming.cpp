// A manifest file applied while it is read (issue 14) must give the registry
// the whole-file path gives, and, for anything wrong or out of order, the
// whole-file path's error: the registry is rolled back and the file re-read.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <unistd.h>

#include "registry/manifest.h"
#include "builtin/builtin_catalogues.h"
#include "load/load_registry.h"
#include "util/errors.h"

using namespace dispatchctl;
namespace fs = std::filesystem;

namespace {

const std::string k_manifest_head = R"J({"dispatchctl_manifest": 1, "torch_version": "2.14.1", )J";
const std::string k_ops =
    R"J("operators": [{"name": "x::a", "schema": "x::a(Tensor self) -> Tensor", "kernels": [{"key": "CPU", "kernel": "a_cpu"}, {"key": "Meta", "kernel": "a_meta"}]}, {"name": "x::b", "kernels": [{"key": "CPU", "kernel": "b_cpu"}]}])J";

fs::path write(const std::string& content) {
  const fs::path path = fs::temp_directory_path() / ("apply-streaming-" + std::to_string(::getpid()) + ".json");
  std::ofstream(path, std::ios::binary) << content;
  return path;
}

// The two operators' origins and kernels as they print, and the registry's size.
std::string describe(const Registry& registry) {
  std::string out;
  for (const char* name : {"x::a", "x::b"})
    if (const Operator* op = registry.find(name)) {
      out += std::string(name) + (op->schema ? " " + op->schema->origin.pointer() : "") + ";";
      for (const Kernel& k : op->registrations)
        out += " " + std::string(k.debug) + "@" + k.origin.pointer() + "#" + std::to_string(k.sequence);
      out += "\n";
    }
  return out + "operators: " + std::to_string(registry.operators().size()) + ", sources: " + registry.sources.back();
}

// The file through load_registry (applied while read when it can be), or its error.
std::string outcome(const std::string& content) {
  const fs::path path = write(content);
  std::string out;
  try {
    out = describe(*load_registry({path.string()}));
  } catch (const InputError& e) {
    out = e.what();
  }
  fs::remove(path);
  return out;
}

// The same file through read_manifest_file + apply_manifest over builtin:2.14.1.
std::string whole_file_outcome(const std::string& content) {
  const fs::path path = write(content);
  std::string out;
  try {
    auto registry = load_registry({"builtin:2.14.1"});
    apply_manifest(*registry, read_manifest_file(path.string(), path.string(), {builtin_releases(), &registry->catalogue()}));
    out = describe(*registry);
  } catch (const InputError& e) {
    out = e.what();
  }
  fs::remove(path);
  return out;
}

}  // namespace

TEST_CASE("manifest applied while read: the registry the whole-file path builds") {
  const std::string manifest = k_manifest_head + k_ops + "}";
  const std::string got = outcome(manifest);
  CHECK(got.find("x::a /operators/0/schema; a_cpu@/operators/0/kernels/0") != std::string::npos);
  CHECK(got.find("b_cpu@/operators/1/kernels/0") != std::string::npos);
  CHECK(got == whole_file_outcome(manifest));
  // "recorded" after the operators (as an export writes it) changes nothing applied.
  const std::string exported = k_manifest_head + k_ops + R"J(, "recorded": {"tables": {}, "states": {}}})J";
  CHECK(outcome(exported) == got);
}

TEST_CASE("manifest applied while read: errors are the whole-file path's, in its order") {
  // A bad key in the second operator and a bad schema in a later one: the schema is checked first.
  const std::string two_errors = k_manifest_head + R"J("operators": [{"name": "x::a", "kernels": [{"key": "CPU", "kernel": "k"}]},
{"name": "x::b", "kernels": [{"key": "Meat", "kernel": "k"}]},
{"name": "x::c", "schema": "x::c(Tensor self -> Tensor"}]})J";
  const std::string error = outcome(two_errors);
  CHECK(error.find("/operators/2/schema") != std::string::npos);
  CHECK(error == whole_file_outcome(two_errors));
  // Fields after "operators" that change what is applied: read whole, then applied in order.
  const std::string late_version =
      R"J({"dispatchctl_manifest": 1, "operators": [], "torch_version": "9.1"})J";
  CHECK(outcome(late_version).find("/torch_version") != std::string::npos);
  // An aten:: definition: a whole registry, not layered over builtin:2.14.1.
  const std::string aten = k_manifest_head + R"J("operators": [{"name": "x::a", "kernels": [{"key": "CPU", "kernel": "k"}]},
{"name": "aten::mine", "schema": "aten::mine(Tensor self) -> Tensor"}]})J";
  CHECK(outcome(aten).find("operators: 2,") != std::string::npos);
}
