// The built-in packs (lib/builtin/pack.h): loading one registers exactly what
// the text loader registers from the dump it was made from (every field,
// origins and registration order included), and a damaged pack is refused
// with InputError, never read out of bounds.
#include <doctest/doctest.h>

#include <cstring>

#include "builtin/builtin.h"
#include "builtin/builtin_catalogues.h"
#include "builtin/pack.h"
#include "keys/catalogue.h"
#include "registry/torch_dump.h"
#include "util/file_io.h"

using namespace dispatchctl;

namespace {

std::string dump_text(const std::string& version) {
  return read_input_file(std::string(DISPATCHCTL_SOURCE_DIR) + "/lib/builtin/data/torch-" + version +
                         "/registry_state.txt.gz");
}

// Every field the registry keeps, one line per registration: equal texts mean equal registries.
std::string describe(const Registry& registry) {
  std::string out;
  const Catalogue& cat = registry.catalogue();
  for (const Fallback& fb : registry.fallbacks())
    out += "fallback " + cat.name(fb.key) + " | " + fb.debug + " | " + std::to_string(fb.fallthrough) + " | " +
           fb.origin.to_string() + " | " + std::to_string(fb.sequence) + "\n";
  for (const Operator& op : registry.operators()) {
    out += op.name + "\n";
    if (op.schema)
      out += " schema " + op.schema->text + " | " + op.schema->debug + " | " + op.schema->alias_analysis +
             (op.schema->alias_analysis_explicit ? " explicit | " : " default | ") + op.schema->origin.to_string() + "\n";
    for (const Kernel& k : op.registrations)
      out += " " + cat.name(k.key) + " | " + k.debug + " | " + k.signature.value_or("(none)") + " | " +
             std::to_string(k.fallthrough) + std::to_string(k.boxed) + std::to_string(k.unboxed) + " | " +
             k.origin.to_string() + " | " + std::to_string(k.sequence) + "\n";
    for (const auto& kk : op.by_key()) {
      out += " by_key " + cat.name(kk.key);
      for (auto i : kk.newest_first) out += " " + std::to_string(i);
      out += "\n";
    }
  }
  return out;
}

}  // namespace

TEST_CASE("pack: the embedded pack registers what the text loaders register from the dump and fallbacks") {
  for (const BuiltinRegistry& builtin : builtin_registries()) {
    if (!builtin.predicted_from.empty()) continue;  // no dump: made from others at build time
    const std::string version(builtin.version);
    CAPTURE(version);
    Registry from_text(*builtin_catalogue(version), version), from_pack(*builtin_catalogue(version), version);
    import_torch_fallbacks(from_text, builtin.fallbacks_json, "builtin:" + version + " fallbacks");
    import_torch_state(from_text, dump_text(version), "builtin:" + version);
    load_pack(from_pack, builtin.pack, "builtin:" + version);
    REQUIRE(from_pack.operators().size() == from_text.operators().size());
    REQUIRE(from_pack.fallbacks().size() == from_text.fallbacks().size());
    CHECK(from_pack.fallbacks().size() > 20);
    CHECK(describe(from_pack) == describe(from_text));
    CHECK(from_pack.registration_count() == from_text.registration_count());
  }
}

TEST_CASE("pack: write_pack then load_pack, and a filter keeps only the operators asked for") {
  const BuiltinRegistry& builtin = builtin_registries().front();
  Registry whole(*builtin_catalogue(builtin.version), std::string(builtin.version));
  load_pack(whole, builtin.pack, "x");
  CHECK(write_pack(whole) == builtin.pack);
  Registry some(whole.catalogue(), whole.torch_version());
  load_pack(some, builtin.pack, "x", [](std::string_view name) { return name.starts_with("aten::add."); });
  REQUIRE(some.operators().size() >= 2);
  for (const Operator& op : some.operators()) CHECK(op.name.starts_with("aten::add."));
  const auto names = pack_operator_names(builtin.pack, "x");
  CHECK(names.size() == whole.operators().size());
  CHECK(std::is_sorted(names.begin(), names.end()));
}

TEST_CASE("pack: a damaged pack is an InputError naming the source") {
  const std::string good(builtin_registries().front().pack);
  const Catalogue& cat = *builtin_catalogue(builtin_registries().front().version);
  auto load = [&](const std::string& data) {
    Registry registry(cat, std::string(builtin_registries().front().version));
    load_pack(registry, data, "builtin:test");
  };
  CHECK_THROWS_WITH_AS(load(""), doctest::Contains("builtin:test: pack: shorter than its header"), InputError);
  CHECK_THROWS_WITH_AS(load("XXXXXXXX" + good.substr(8)), doctest::Contains("not a dispatchctl pack"), InputError);
  CHECK_THROWS_WITH_AS(load(good.substr(0, good.size() - 1)), doctest::Contains("truncated"), InputError);
  // The first operator's name id beyond the string table.
  std::string bad_string = good;
  const std::uint32_t huge = 0x7FFFFFFF;
  PackHeader header;
  std::memcpy(&header, good.data(), sizeof header);
  const size_t first_op = sizeof(PackHeader) + header.key_count * sizeof(std::uint32_t);
  std::memcpy(bad_string.data() + first_op, &huge, sizeof huge);
  CHECK_THROWS_WITH_AS(load(bad_string), doctest::Contains("out of range"), InputError);
  // A kernel naming a key index the pack does not have.
  std::string bad_key = good;
  const size_t first_kernel = first_op + header.operator_count * sizeof(PackedOperator);
  const std::uint16_t no_key = 0xFFFF;
  std::memcpy(bad_key.data() + first_kernel + offsetof(PackedKernel, key), &no_key, sizeof no_key);
  CHECK_THROWS_WITH_AS(load(bad_key), doctest::Contains("key index out of range"), InputError);
}

TEST_CASE("pack: a filter with name prefixes loads what the plain filter loads, in the same order") {
  const BuiltinRegistry& builtin = builtin_registries().front();
  const Catalogue& cat = *builtin_catalogue(builtin.version);
  const std::vector<std::vector<std::string>> cases = {
      {"aten::add"}, {"aten::add", "aten::add."}, {"aten::mul.", "aten::add"}, {""}, {"zzz"}, {"aten::sin", "prims::"}};
  for (const auto& prefixes : cases) {
    CAPTURE(prefixes);
    auto starts_with_one = [prefixes](std::string_view name) {
      for (const auto& p : prefixes)
        if (name.starts_with(p)) return true;
      return false;
    };
    Registry plain(cat, std::string(builtin.version)), ranged(cat, std::string(builtin.version));
    load_pack(plain, builtin.pack, "x", starts_with_one);
    load_pack(ranged, builtin.pack, "x", OperatorPrefixes{prefixes, starts_with_one});
    CHECK(describe(ranged) == describe(plain));
  }
}
