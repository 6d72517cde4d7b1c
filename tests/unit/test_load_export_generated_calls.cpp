// An export's generated composites given what they call (issue 22): a manifest
// in the embedded exporter's layout (tools/dispatchctl_exporter/manifest_writer.py:
// one line per operator head and per kernel) with 1.13.1's YAML (the one real
// torchgen 1.13.1 read, tests/data/torch-1.13.1/torchgen/). The whole live
// export against real torchgen's calls: tests/e2e/test_export_cli_live.py.
#include <doctest/doctest.h>

#include <filesystem>
#include <string>

#include <unistd.h>

#include "load/export_generated_calls.h"
#include "load/load_registry.h"
#include "test_support.h"
#include "util/file_io.h"

using namespace dispatchctl;

namespace {

// What the exporter writes for two operators of 1.13.1 (kernels as the dump names them).
const std::string k_export =
    "{\n \"dispatchctl_manifest\": 1,\n \"torch_version\": \"1.13.1\",\n \"operators\": [\n"
    "  {\"name\": \"aten::add.out\", \"schema\": \"aten::add.out(Tensor self, Tensor other, *, Scalar alpha=1, "
    "Tensor(a!) out) -> Tensor(a!)\", \"kernels\": [\n"
    "    {\"key\": \"CPU\", \"kernel\": \"registered at aten/src/ATen/RegisterCPU.cpp:30798\"}]},\n"
    "  {\"name\": \"aten::add.Tensor\", \"schema\": \"aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) "
    "-> Tensor\", \"kernels\": [\n"
    "    {\"key\": \"CPU\", \"kernel\": \"registered at aten/src/ATen/RegisterCPU.cpp:30797\"},\n"
    "    {\"key\": \"CompositeExplicitAutogradNonFunctional\", \"kernel\": \"registered at "
    "aten/src/ATen/RegisterCompositeExplicitAutogradNonFunctional.cpp:9\"}]}\n"
    " ]\n}\n";

std::string scratch_file(const std::string& name, const std::string& text) {
  const auto path = std::filesystem::temp_directory_path() / ("dispatchctl-test-" + std::to_string(::getpid()) + "-" + name);
  write_file_atomically(path.string(), text);
  return path.string();
}

}  // namespace

TEST_CASE("export generated calls: the manifest gets a generated_calls section, its entries stay as written") {
  const std::string path = scratch_file("export-calls.json", k_export);
  const ExportCallsAdded added =
      add_generated_calls_to_export(path, std::string(DISPATCHCTL_TEST_DATA) + "/torch-1.13.1/torchgen");
  CHECK(added.calls == 1);
  CHECK(added.note.empty());
  std::string want = k_export;
  want.insert(want.rfind(" ]\n}") + 2, ",\n \"generated_calls\": [\n  {\"operator\":1,\"kernel\":1,\"op\":\"aten::add.out\","
                                      "\"kind\":\"structured_out\"}\n ]");
  CHECK(read_input_file(path) == want);
  auto reg = load_registry({path});
  const Operator& add = *reg->find("aten::add.Tensor");
  CHECK(reg->generated_call(add.registrations[0]) == nullptr);
  const GeneratedCall* call = reg->generated_call(add.registrations[1]);
  REQUIRE(call != nullptr);
  CHECK(std::string_view(call->callee) == "aten::add.out");
  std::filesystem::remove(path);
}

TEST_CASE("export generated calls: without torchgen's YAML the file stays as written, and a note says so") {
  const std::string path = scratch_file("export-no-yaml.json", k_export);
  const ExportCallsAdded added = add_generated_calls_to_export(path, "");
  CHECK(added.calls == 0);
  CHECK(added.note.find("ships no torchgen YAML") != std::string::npos);
  CHECK(added.note.find("taken at face value") != std::string::npos);
  CHECK(read_input_file(path) == k_export);
  std::filesystem::remove(path);
}

TEST_CASE("export generated calls: the exporter's line naming the YAML folder") {
  CHECK(torchgen_yaml_folder_from("dispatchctl-export: torch 1.13.1: 2 operators\n"
                                  "dispatchctl-export: torchgen YAML: /usr/lib/python3/dist-packages/torchgen/"
                                  "packaged/ATen/native\n") ==
        "/usr/lib/python3/dist-packages/torchgen/packaged/ATen/native");
  CHECK(torchgen_yaml_folder_from("dispatchctl-export: torchgen YAML: none\n").empty());
  CHECK(torchgen_yaml_folder_from("").empty());
}
