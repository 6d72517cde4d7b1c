// The streaming manifest reader (manifest_stream.h): every manifest of the
// repository loads into a registry holding exactly the registrations its JSON
// (read independently, as a whole nlohmann DOM) lists, in order; from a file
// (read in blocks) and from text alike; and file-only errors (NUL, syntax
// across blocks) are told as parse_json_or_throw tells them.
#include <doctest/doctest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <tuple>

#include "registry/manifest.h"
#include "builtin/builtin_catalogues.h"
#include "util/errors.h"
#include "util/file_io.h"
#include "util/json_parse.h"

using namespace dispatchctl;
namespace fs = std::filesystem;

namespace {

using Registration = std::tuple<std::string, std::string, std::string, bool>;  // op, key, kernel, fallthrough

std::vector<Registration> listed(const nlohmann::json& doc) {
  std::vector<Registration> out;
  for (const auto& op : doc["operators"])
    for (const auto& k : op.value("kernels", nlohmann::json::array()))
      out.emplace_back(op["name"], k["key"], k["kernel"], k.value("fallthrough", false));
  return out;
}

std::vector<Registration> registered(const Registry& registry) {
  std::vector<std::pair<std::uint32_t, Registration>> by_sequence;
  for (const auto& op : registry.operators())
    for (const auto& k : op.registrations)
      by_sequence.push_back({k.sequence, {op.name, registry.catalogue().name(k.key), k.debug, k.fallthrough}});
  std::sort(by_sequence.begin(), by_sequence.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<Registration> out;
  for (auto& [_, r] : by_sequence) out.push_back(std::move(r));
  return out;
}

std::unique_ptr<Registry> load(ManifestDocument&& manifest) {
  auto registry = std::make_unique<Registry>(*manifest.catalogue, manifest.torch_version);
  apply_manifest(*registry, std::move(manifest));
  return registry;
}

std::string file_error(const std::string& content) {
  const fs::path path = fs::temp_directory_path() / ("stream-test-" + std::to_string(::getpid()) + ".json");
  std::ofstream(path, std::ios::binary) << content;
  std::string error = "(no error)";
  try {
    (void)load(read_manifest_file(path.string(), "m.json", {builtin_releases()}));
  } catch (const InputError& e) {
    error = e.what();
  }
  fs::remove(path);
  return error;
}

std::string text_error(const std::string& content, const std::string& source = "m.json") {
  try {
    (void)load(read_manifest(content, source, {builtin_releases()}));
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace

TEST_CASE("manifest stream: every repository manifest loads what its JSON lists, from a file and from text") {
  size_t checked = 0;
  for (const char* folder : {"tests/manifests", "tests/cli/fixtures", "examples"}) {
    for (const auto& entry : fs::recursive_directory_iterator(fs::path(DISPATCHCTL_SOURCE_DIR) / folder)) {
      if (entry.path().extension() != ".json") continue;
      const std::string path = entry.path().string();
      const std::string text = read_input_file(path);
      const auto doc = nlohmann::json::parse(text, nullptr, false);
      if (doc.is_discarded() || !doc.is_object() || !doc.contains("dispatchctl_manifest") ||
          !doc.contains("operators") || !doc["operators"].is_array())
        continue;
      std::unique_ptr<Registry> from_file, from_text;
      try {
        from_file = load(read_manifest_file(path, path, {builtin_releases()}));
      } catch (const InputError& e) {
        // A fixture that is meant to be refused: both readers say the same.
        CHECK_MESSAGE(text_error(text, path) == std::string(e.what()), path);
        continue;
      }
      from_text = load(read_manifest(text, path, {builtin_releases()}));
      INFO(path);
      CHECK(registered(*from_file) == listed(doc));
      CHECK(write_manifest(*from_file, "x") == write_manifest(*from_text, "x"));
      for (const auto& op : doc["operators"]) {
        const Operator* loaded = from_file->find(op["name"].get<std::string>());
        REQUIRE(loaded);
        if (op.contains("schema")) {
          REQUIRE(loaded->schema);
          CHECK(loaded->schema->text == op["schema"].get<std::string>());
        }
      }
      ++checked;
    }
  }
  CHECK(checked >= 10);
}

TEST_CASE("manifest stream: a file's errors read as the text's do") {
  const std::string head = R"J({"dispatchctl_manifest": 1, "torch_version": "2.14.1", "operators": [)J";
  // A syntax error past the first 1 MiB block, with its line and column.
  std::string big = head;
  for (int i = 0; big.size() < (size_t{3} << 20); ++i)
    big += "\n{\"name\": \"x::op_" + std::to_string(i) + "\", \"kernels\": [{\"key\": \"CPU\", \"kernel\": \"k\"}]},";
  const std::string broken = big + "\n{\"name\": }]}";
  CHECK(file_error(broken) == text_error(broken));
  CHECK(file_error(broken).find("invalid JSON") != std::string::npos);
  // A NUL after a complete document would end nlohmann's input: refused.
  const std::string nul = head + "]}" + std::string(1, '\0') + "garbage";
  CHECK(file_error(nul) == "m.json:1:" + std::to_string(head.size() + 3) + ": invalid JSON: NUL byte; JSON text cannot contain one");
  CHECK(text_error(nul) == file_error(nul));
  CHECK(file_error("  \n") == "m.json: empty file; expected a JSON document");
  CHECK(file_error(head + "1e400]}") == "m.json: invalid JSON: number overflow parsing '1e400'; use a smaller number");
  CHECK(file_error(head + "{\"name\": \"x::a\", \"name\": \"x::b\"}]}") ==
        "m.json: duplicate key \"name\" in one JSON object; keep only one");
  CHECK(file_error(head + "]} ") == "(no error)");
  // Errors inside an operator keep the order a walk over the document gives:
  // the unknown key of kernel 0 before the type error of kernel 1.
  CHECK(file_error(head + R"J({"name": "x::a", "kernels": [{"key": "Meat", "kernel": "k"}, {"key": "CPU", "kernel": 1}]}]})J")
            .find("/operators/0/kernels/0/key: ") != std::string::npos);
  CHECK(file_error(head + R"J({"name": "x::a", "kernels": [{"key": "CPU", "kernel": "k"}, {"key": "CPU", "kernel": 1}]}]})J") ==
        "m.json: /operators/0/kernels/1/kernel: expected a string, got a number");
}

TEST_CASE("manifest stream: operators given as something else than an array are refused as before") {
  CHECK(text_error(R"J({"dispatchctl_manifest": 1, "torch_version": "2.14.1", "operators": {}})J") ==
        "m.json: /operators: expected an array, got an object");
  CHECK(text_error(R"J({"dispatchctl_manifest": 1, "torch_version": "2.14.1", "operators": [], "operators": []})J") ==
        "m.json: duplicate key \"operators\" in one JSON object; keep only one");
  CHECK(text_error(R"J({"dispatchctl_manifest": 1, "torch_version": "2.14.1", "operators": ["x"]})J") ==
        "m.json: /operators/0: expected an object, got a string");
}

TEST_CASE("manifest records: the registry keeps their strings after the document is gone") {
  std::unique_ptr<Registry> registry;
  {
    const ManifestDocument manifest = read_manifest(
        R"({"dispatchctl_manifest": 1, "torch_version": "2.14.1", "operators": [
             {"name": "x::op", "schema": "x::op(Tensor self) -> Tensor", "debug": "defined at x.cpp:1",
              "kernels": [{"key": "CPU", "kernel": "x_cpu registered at x.cpp:2", "signature": "(Tensor _0) -> Tensor _0"}]}]})",
        "m.json", {builtin_releases()});
    registry = std::make_unique<Registry>(*manifest.catalogue, manifest.torch_version);
    apply_manifest(*registry, manifest);
  }
  // Reuse the freed memory, so a view into it would read this instead.
  std::vector<std::string> scribble(2000, std::string(120, '?'));
  const Operator* op = registry->find("x::op");
  REQUIRE(op != nullptr);
  CHECK(op->name == "x::op");
  REQUIRE(op->schema);
  CHECK(op->schema->text == "x::op(Tensor self) -> Tensor");
  CHECK(op->schema->debug == "defined at x.cpp:1");
  CHECK(op->schema->origin.pointer() == "/operators/0/schema");
  REQUIRE(op->registrations.size() == 1);
  CHECK(op->registrations[0].debug == "x_cpu registered at x.cpp:2");
  CHECK(*op->registrations[0].signature == "(Tensor _0) -> Tensor _0");
  CHECK(op->registrations[0].origin.pointer() == "/operators/0/kernels/0");
  CHECK(op->registrations[0].origin.file() == "m.json");
}
