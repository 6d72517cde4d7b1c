// Helpers shared by the unit tests: golden data and small registries.
#pragma once

#include <cstddef>
#include <map>
#include <memory>
#include <string>
#include <string_view>

#include "registry/registry.h"
#include "util/errors.h"

namespace dispatchctl::test {

// Under ASan+UBSan (about ten times slower) a sweep that runs one code path
// over many real inputs (one YAML edit per refusal kind, every built-in
// registry) takes every k_sweep_stride-th input: the sanitizers look for memory
// errors in the code path, which a sample covers; the release build's run
// (tools/bootstrap --test) takes every input.
#if DISPATCHCTL_SANITIZED_TESTS
inline constexpr std::size_t k_sweep_stride = 4;
#else
inline constexpr std::size_t k_sweep_stride = 1;
#endif

// tests/data/<relative>, gunzipped if needed.
std::string read_test_data(const std::string& relative);
// "=== NAME" blocks of a dump file, by operator name.
std::map<std::string, std::string> split_blocks(const std::string& text);
// A built-in registry ("builtin:1.13.1"), loaded once per test run and shared.
const Registry& builtin_registry(const std::string& source);
// A registry from manifest JSON text (throws InputError like the CLI).
std::unique_ptr<Registry> registry_from_json(const std::string& json_text);
// The InputError text loading that manifest gives, or "(no error)".
std::string load_error(const std::string& json_text);

// The InputError text `run()` throws, or "(no error)".
template <typename Run>
std::string input_error_of(Run&& run) {
  try {
    run();
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace dispatchctl::test
