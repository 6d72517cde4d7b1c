#include "util/log.h"

namespace dispatchctl {
namespace {
LogSink g_sink;
LogLevel g_min_level = LogLevel::warning;
bool g_timing_active = false;
std::vector<std::pair<std::string, double>> g_phases;
}  // namespace

void set_log_sink(LogSink sink, LogLevel min_level) {
  g_sink = std::move(sink);
  g_min_level = min_level;
}

bool log_enabled(LogLevel level) { return g_sink && level >= g_min_level; }

void log_message(LogLevel level, std::string_view message) {
  if (log_enabled(level)) g_sink(level, message);
}

PhaseTimer::PhaseTimer(const char* phase) {
  if (g_timing_active || !log_enabled(LogLevel::verbose)) return;
  g_timing_active = true;
  phase_ = phase;
  start_ = std::chrono::steady_clock::now();
}

PhaseTimer::~PhaseTimer() {
  if (!phase_) return;
  g_timing_active = false;
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start_).count();
  for (auto& [name, total] : g_phases) {
    if (name == phase_) {
      total += ms;
      return;
    }
  }
  g_phases.emplace_back(phase_, ms);
}

std::vector<std::pair<std::string, double>> phase_totals() { return g_phases; }

}  // namespace dispatchctl
