#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

#include "load/load_registry.h"
#include "util/log.h"

using namespace dispatchctl;

namespace {
// Installs a sink that records messages for the test's lifetime.
struct RecordingSink {
  std::vector<std::pair<LogLevel, std::string>> messages;
  explicit RecordingSink(LogLevel least) {
    set_log_sink([this](LogLevel level, std::string_view text) { messages.emplace_back(level, text); }, least);
  }
  ~RecordingSink() { set_log_sink({}, LogLevel::warning); }
};
}  // namespace

TEST_CASE("log: without a sink the library says nothing and formats nothing") {
  set_log_sink({}, LogLevel::verbose);
  CHECK_FALSE(log_enabled(LogLevel::warning));
  CHECK_FALSE(log_enabled(LogLevel::verbose));
  log_warning("{}", "dropped");  // must not crash without a sink
}

TEST_CASE("log: the sink gets messages at or above its level, formatted") {
  RecordingSink sink(LogLevel::note);
  log_verbose("hidden {}", 1);
  log_note("imported {} operators", 3640);
  log_warning("{}: {}", "a.json", "odd");
  REQUIRE(sink.messages.size() == 2);
  CHECK(sink.messages[0] == std::pair<LogLevel, std::string>{LogLevel::note, "imported 3640 operators"});
  CHECK(sink.messages[1] == std::pair<LogLevel, std::string>{LogLevel::warning, "a.json: odd"});
}

TEST_CASE("log: loading a registry reports what came from where") {
  RecordingSink sink(LogLevel::verbose);
  load_registry({"builtin:1.13.1"});
  REQUIRE_FALSE(sink.messages.empty());
  CHECK(sink.messages[0].first == LogLevel::verbose);
  CHECK(sink.messages[0].second ==
        "loaded builtin:1.13.1 (PyTorch 1.13.1's registry, embedded in the binary): operators: 3380, "
        "backend fallbacks: 28");
}

TEST_CASE("log: phase timers count only while verbose, and a nested timer adds nothing") {
  const auto totals_of = [](const std::string& phase) {
    int seen = 0;
    for (const auto& [name, ms] : phase_totals()) seen += name == phase;
    return seen;
  };
  { PhaseTimer quiet("test-phase-off"); }
  CHECK(totals_of("test-phase-off") == 0);
  RecordingSink sink(LogLevel::verbose);
  {
    PhaseTimer outer("test-phase-outer");
    PhaseTimer inner("test-phase-inner");
  }
  CHECK(totals_of("test-phase-outer") == 1);
  CHECK(totals_of("test-phase-inner") == 0);
}

// Every message for people goes through the one sink (app/common.cpp gives it
// the "dispatchctl: note: " prefix); a stray fprintf(stderr, "note: …") in a
// subcommand printed query's python-kernel note without it.
TEST_CASE("log: no source file in app/ or lib/ prints to stderr or stdout around the sink") {
  namespace fs = std::filesystem;
  const std::vector<std::string> stray = {"fprintf(", "std::cerr", "std::cout", "std::puts(", "fputs(", " printf(", "std::printf("};
  // app/common.cpp owns stdout and the logger; the build tools run before dispatchctl exists.
  const std::vector<std::string> allowed = {"app/common.cpp", "lib/builtin/gen/pack_tool.cpp",
                                            "lib/builtin/gen/profile_tool.cpp", "lib/builtin/gen/predict_tool.cpp"};
  std::vector<std::string> found;
  for (const char* dir : {"app", "lib"})
    for (const auto& entry : fs::recursive_directory_iterator(fs::path(DISPATCHCTL_SOURCE_DIR) / dir)) {
      const auto ext = entry.path().extension();
      if (ext != ".cpp" && ext != ".h") continue;
      const std::string rel = fs::relative(entry.path(), DISPATCHCTL_SOURCE_DIR).generic_string();
      if (std::find(allowed.begin(), allowed.end(), rel) != allowed.end()) continue;
      std::ifstream in(entry.path());
      const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      for (const auto& s : stray)
        if (text.find(s) != std::string::npos) found.push_back(rel + ": " + s);
    }
  CHECK(found == std::vector<std::string>{});
}
