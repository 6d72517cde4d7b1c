// The library's only way to talk to a person: messages go to a sink the
// application installs (dispatchctl wires it to spdlog on stderr). Without a
// sink nothing is formatted or printed, so lib/ stays silent when embedded.
#pragma once

#include <fmt/format.h>

#include <chrono>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace dispatchctl {

// Ordered by importance: a sink set for `note` receives notes and warnings.
enum class LogLevel { verbose, note, warning };

using LogSink = std::function<void(LogLevel, std::string_view)>;

// Installs the sink and the least important level it wants; an empty sink
// turns logging off (the default).
void set_log_sink(LogSink sink, LogLevel min_level);
bool log_enabled(LogLevel level);
void log_message(LogLevel level, std::string_view message);

template <typename... Args>
void log_verbose(fmt::format_string<Args...> format, Args&&... args) {
  if (log_enabled(LogLevel::verbose)) log_message(LogLevel::verbose, fmt::format(format, std::forward<Args>(args)...));
}
template <typename... Args>
void log_note(fmt::format_string<Args...> format, Args&&... args) {
  if (log_enabled(LogLevel::note)) log_message(LogLevel::note, fmt::format(format, std::forward<Args>(args)...));
}
template <typename... Args>
void log_warning(fmt::format_string<Args...> format, Args&&... args) {
  if (log_enabled(LogLevel::warning)) log_message(LogLevel::warning, fmt::format(format, std::forward<Args>(args)...));
}

// Adds the wall time of its scope to a named phase (load, compute, render)
// while verbose logging is on. A timer started inside another one adds
// nothing, so compute_row called by compute_table is not counted twice.
class PhaseTimer {
 public:
  explicit PhaseTimer(const char* phase);
  ~PhaseTimer();
  PhaseTimer(const PhaseTimer&) = delete;
  PhaseTimer& operator=(const PhaseTimer&) = delete;

 private:
  const char* phase_ = nullptr;  // null: not timing (off, or nested)
  std::chrono::steady_clock::time_point start_;
};

// Milliseconds per phase, in the order the phases first ran.
std::vector<std::pair<std::string, double>> phase_totals();

}  // namespace dispatchctl
