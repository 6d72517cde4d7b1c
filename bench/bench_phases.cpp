// Times the phases of the whole-registry job in-process: load (import a
// built-in registry, or parse a JSON manifest), compute every table,
// render every table as torch-table text, with the page faults each takes
// (on a VM a fault costs ~10 us: at ~1,000 per job, a third of its time).
// Prints one JSON object. bench/run.py runs it once per source: a load after
// another in the same process finds the heap already grown and faulted in.
//   bench_phases builtin:2.14.1 [manifest.json]
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "registry/manifest.h"
#include "load/load_registry.h"
#include "table/torch_text.h"
#include "table/table.h"
#include "util/errors.h"

using namespace dispatchctl;
using Clock = std::chrono::steady_clock;

static long minor_faults() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_minflt;
}

static double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: bench_phases SOURCE [SOURCE...]\n");
    return 2;
  }
  try {
    nlohmann::ordered_json result;
    for (int i = 1; i < argc; ++i) {
      const std::string source = argv[i];
      const long faults_before = minor_faults();
      auto t0 = Clock::now();
      auto registry = load_registry({source});
      const double load_ms = ms_since(t0);
      const long load_faults = minor_faults() - faults_before;
      // As `show` does: operator by operator, each table computed (TableComputer) and rendered into a fixed output buffer handed off as it
      // fills (here to a counter); the two phases' times are summed over the operators.
      double compute_ms = 0, render_ms = 0;
      TableComputer computer(*registry);
      size_t output_bytes = 0;
      ChunkedOutput out([&output_bytes](std::string_view text) { output_bytes += text.size(); });
      for (const Operator* op : registry->sorted_operators()) {
        t0 = Clock::now();
        const std::vector<Row>& rows = computer.compute(*op);
        const auto t1 = Clock::now();
        out.append("=== ");
        out.append(op->name);
        out.append("\n");
        append_torch_table(out, registry->catalogue(), rows);
        compute_ms += std::chrono::duration<double, std::milli>(t1 - t0).count();
        render_ms += ms_since(t1);
      }
      out.flush();
      result[source] = {{"operators", registry->operators().size()},
                        {"load_ms", load_ms},
                        {"load_faults", load_faults},
                        {"compute_render_faults", minor_faults() - faults_before - load_faults},
                        {"compute_all_ms", compute_ms},
                        {"render_all_ms", render_ms},
                        {"output_bytes", output_bytes}};
    }
    std::printf("%s\n", result.dump(2).c_str());
  } catch (const InputError& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 2;
  }
  return 0;
}
