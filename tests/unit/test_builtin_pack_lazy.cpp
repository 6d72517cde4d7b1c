// The built-in packs' recorded composite calls are decoded a section at a time
// when first asked for (Registry::defer_composite_calls): what a lazily decoded
// pack gives is, kernel for kernel and kind for kind, what the release's
// recording file (lib/builtin/data/torch-*/composite_calls.json.gz, read here
// with nlohmann, not by the code under test) says; a load decodes nothing, and
// asking one kind decodes that kind's section alone.
#include <doctest/doctest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>

#include "builtin/builtin.h"
#include "builtin/builtin_catalogues.h"
#include "builtin/pack.h"
#include "util/file_io.h"

using namespace dispatchctl;
using json = nlohmann::json;

namespace {

const std::string k_data = std::string(DISPATCHCTL_SOURCE_DIR) + "/lib/builtin/data/torch-";

// The recording file a built-in registry's calls come from: its own, or a
// predicted build's base's (predict.json), whose kernels it carries.
std::optional<json> recording_of(std::string_view version) {
  std::string folder = k_data + std::string(version);
  if (std::filesystem::exists(folder + "/predict.json"))
    folder = k_data + json::parse(read_input_file(folder + "/predict.json"))["base"].get<std::string>().substr(6);
  if (!std::filesystem::exists(folder + "/composite_calls.json.gz")) return std::nullopt;
  return json::parse(read_input_file(folder + "/composite_calls.json.gz"));
}

OperatorPrefixes std_prefix() {
  return {{"aten::std"}, [](std::string_view name) { return name.starts_with("aten::std"); }};
}

std::size_t decoded_calls(const Registry& registry) {
  std::size_t n = 0;
  registry.for_each_decoded_call([&](const RecordedCall&) { ++n; });
  return n;
}

// Every entry of one section of the file against what the registry answers
// for its kernel; returns the number of recorded calls the entries hold.
std::size_t check_section(const Registry& registry, const json& kernels, std::optional<Key> kind,
                          const std::string& what) {
  const Catalogue& cat = registry.catalogue();
  std::size_t calls_total = 0, compared = 0;
  for (const json& entry : kernels) {
    const Operator* op = registry.find(entry["op"].get<std::string>());
    const auto key = cat.find(entry["key"].get<std::string>());
    REQUIRE(key);
    const Kernel* kernel = op ? op->active(*key) : nullptr;
    if (!kernel) continue;  // not in this registry: the loader skips it too
    INFO(what << " " << entry["op"].get<std::string>() << " at " << entry["key"].get<std::string>());
    const CompositeCalls* calls = kind ? registry.kind_composite_calls(*kernel, *kind) : registry.composite_calls(*kernel);
    REQUIRE(calls);
    CHECK(calls->samples == entry["samples"].get<std::uint32_t>());
    const json list = entry.value("calls", json::array());
    REQUIRE(calls->calls.size() == list.size());
    for (std::size_t i = 0; i < list.size(); ++i) {
      CHECK(std::string(calls->calls[i].op) == list[i]["op"].get<std::string>());
      CHECK(call_when_id(calls->calls[i].when) == list[i]["when"].get<std::string>());
    }
    calls_total += list.size();
    if (entry.contains("raises")) {
      REQUIRE(calls->raises);
      CHECK(std::string(*calls->raises) == entry["raises"]["message"].get<std::string>());
      CHECK(call_when_id(calls->raises_when) == entry["raises"]["when"].get<std::string>());
      CHECK(calls->raises_type.value_or("") == entry["raises"].value("type", ""));
    } else {
      CHECK_FALSE(calls->raises);
    }
    ++compared;
  }
  CHECK(compared > kernels.size() / 2);  // most of the release's entries are its registry's kernels
  return calls_total;
}

}  // namespace

TEST_CASE("pack: lazily decoded recorded calls are the recording file's, for every kind of every built-in release") {
  int releases = 0;
  for (const BuiltinRegistry& builtin : builtin_registries()) {
    const auto recording = recording_of(builtin.version);
    if (!recording) continue;
    ++releases;
    CAPTURE(builtin.version);
    Registry registry(*builtin_catalogue(builtin.version), std::string(builtin.release));
    load_pack(registry, builtin.pack, "builtin:" + std::string(builtin.version));
    // A load decodes nothing (show, tables, has-kernel without --works).
    CHECK(decoded_calls(registry) == 0);
    const Catalogue& cat = registry.catalogue();
    std::size_t expected = 0;
    // One kind asked for: that kind's section alone is decoded.
    for (const json& section : recording->value("kinds", json::array())) {
      const auto kind = cat.find(section["key"].get<std::string>());
      REQUIRE(kind);
      expected += check_section(registry, section["kernels"], *kind, section["key"].get<std::string>());
      CHECK(decoded_calls(registry) == expected);
    }
    expected += check_section(registry, (*recording)["kernels"], std::nullopt, "main recording");
    CHECK(decoded_calls(registry) == expected);
    CHECK(registry.composite_call_kinds().size() == recording->value("kinds", json::array()).size());
  }
  CHECK(releases >= 3);
}

TEST_CASE("pack: a filtered load decodes the sections of the operators it loaded, and loads their callees") {
  const BuiltinRegistry& builtin = *find_builtin("builtin:2.14.1");
  Registry some(*builtin_catalogue(builtin.version), std::string(builtin.release));
  load_pack(some, builtin.pack, "x", std_prefix());
  CHECK(decoded_calls(some) == 0);
  std::size_t recorded = 0;
  for (const Operator& op : some.operators())
    for (const Kernel& k : op.registrations) {
      for (const Key kind : some.composite_call_kinds())
        if (const CompositeCalls* calls = some.kind_composite_calls(k, kind)) {
          ++recorded;
          for (const RecordedCall& c : calls->calls) CHECK_MESSAGE(some.find(c.op), std::string(c.op));
        }
      if (const CompositeCalls* calls = some.composite_calls(k)) {
        ++recorded;
        for (const RecordedCall& c : calls->calls) CHECK_MESSAGE(some.find(c.op), std::string(c.op));
      }
    }
  CHECK(recorded > 5);
}

TEST_CASE("pack: calls recorded after a pack's load replace the pack's, as when the pack's were decoded at once") {
  const BuiltinRegistry& builtin = *find_builtin("builtin:2.14.1");
  Registry registry(*builtin_catalogue(builtin.version), std::string(builtin.release));
  load_pack(registry, builtin.pack, "x", std_prefix());
  const Operator* op = registry.find("aten::std");
  REQUIRE(op);
  const Kernel* kernel = op->active(*registry.catalogue().find("CompositeImplicitAutograd"));
  REQUIRE(kernel);
  CompositeCalls mine;
  mine.samples = 7;
  mine.calls = {{"aten::var", CallWhen::SomeInputs}};
  registry.record_composite_calls(*kernel, mine);
  REQUIRE(registry.composite_calls(*kernel));
  CHECK(registry.composite_calls(*kernel)->samples == 7);
  CHECK(decoded_calls(registry) > 1);  // the pack's other sections were decoded first
}

TEST_CASE("pack: each built-in release's backward nodes are the recording file's, with how it saw them") {
  int releases = 0;
  for (const BuiltinRegistry& builtin : builtin_registries()) {
    const auto recording = recording_of(builtin.version);
    if (!recording || !recording->contains("backward")) continue;
    ++releases;
    CAPTURE(builtin.version);
    Registry registry(*builtin_catalogue(builtin.version), std::string(builtin.release));
    load_pack(registry, builtin.pack, "builtin:" + std::string(builtin.version));
    // docs/composite-calls.md: absent, the nodes got every output's gradient, contiguous.
    const bool engine_gradients = recording->value("backward_gradients", "every_output") == "first_output_expanded";
    std::size_t marked = 0;
    for (const json& entry : (*recording)["backward"]) {
      const std::string op = entry["op"].get<std::string>();
      INFO(op);
      const auto* calls = registry.backward_calls(op);
      REQUIRE(calls);
      const json list = entry.value("calls", json::array());
      REQUIRE(calls->size() == list.size());
      for (std::size_t i = 0; i < list.size(); ++i) CHECK(std::string((*calls)[i].op) == list[i]["op"].get<std::string>());
      const std::uint8_t flags = registry.backward_flags(op);
      const bool every_output = flags & k_backward_every_output_gradient;
      const bool contiguous = flags & k_backward_contiguous_gradient;
      const bool mode_dependent = flags & k_backward_mode_dependent;
      CHECK(every_output == !engine_gradients);
      CHECK(contiguous == !engine_gradients);
      CHECK(mode_dependent == entry.value("mode_dependent", false));
      marked += entry.value("mode_dependent", false);
    }
    // 1.13.1's recording under the mode marks the formulas that test isTensorSubclassLike (max among them).
    if (builtin.version == std::string_view("1.13.1")) {
      CHECK(marked >= 4);
      CHECK((registry.backward_flags("aten::max") & k_backward_mode_dependent) != 0);
    }
  }
  CHECK(releases >= 3);
}
