#!/usr/bin/python3
"""dispatchctl benchmark: wall time and peak memory of the whole job, next to
PyTorch's own time for the same job when Debian's python3-torch is installed.

  bench/run.py [--build build] [--runs 5]

Measures (median of --runs):
  * `dispatchctl show aten::add` (built-in 2.14.1), end to end
  * `dispatchctl show '*' --format torch-table` on builtin:1.13.1 and builtin:2.14.1
  * the same from a JSON manifest (the import of the real 2.14.1 dump)
  * in-process phases: load / compute all tables / render all (bench_phases)
  * PyTorch 1.13.1 (/usr/bin/python3): `import torch` alone, and import plus
    `_dispatch_dump_table` over every operator
"""
import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def measure(cmd, runs):
    """Median wall seconds and max peak RSS (MiB) of `cmd` over `runs`."""
    walls, peaks = [], []
    for _ in range(runs):
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        _, status, usage = os.wait4(proc.pid, 0)
        walls.append(time.perf_counter() - start)
        proc.returncode = os.waitstatus_to_exitcode(status)
        if proc.returncode != 0:
            sys.exit(f"failed: {' '.join(cmd)}\n{proc.stderr.read().decode()}")
        peaks.append(usage.ru_maxrss / 1024)
    return statistics.median(walls), max(peaks)


def torch_available():
    return subprocess.run(["/usr/bin/python3", "-c", "import torch"],
                          capture_output=True).returncode == 0


TORCH_ALL_TABLES = """
import torch
names = sorted(torch._C._dispatch_get_registrations_for_dispatch_key(""))
out = [torch._C._dispatch_dump_table(n) for n in names]
"""


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    tool = os.path.join(args.build, "app", "dispatchctl")
    phases = os.path.join(args.build, "bench", "bench_phases")
    for binary in (tool, phases):
        if not os.path.exists(binary):
            sys.exit(f"{binary} not built; run tools/bootstrap first")

    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        manifest = os.path.join(tmp, "torch-2.14.1.json")
        subprocess.run([tool, "import", "torch-dump",
                        os.path.join(ROOT, "lib/builtin/data/torch-2.14.1/registry_state.txt.gz"),
                        "--fallbacks", os.path.join(ROOT, "lib/builtin/data/torch-2.14.1/fallbacks.json"),
                        "--torch-version", "2.14.1", "-o", manifest], check=True, capture_output=True)
        rows.append(("show aten::add (builtin 2.14.1)", measure([tool, "show", "aten::add"], args.runs)))
        rows.append(("show aten::add.Tensor --format torch-table", measure([tool, "show", "aten::add.Tensor", "--format", "torch-table"], args.runs)))
        for version in ("1.13.1", "2.14.1"):
            rows.append((f"all tables, builtin:{version}",
                         measure([tool, "show", "*", "--format", "torch-table", "-m", f"builtin:{version}"], args.runs)))
        rows.append(("all tables, 2.14.1 JSON manifest",
                     measure([tool, "show", "*", "--format", "torch-table", "-m", manifest], args.runs)))
        phase_report = json.loads(subprocess.run([phases, "builtin:1.13.1", "builtin:2.14.1", manifest],
                                                 check=True, capture_output=True, text=True).stdout)

    torch_rows = []
    if torch_available():
        torch_rows.append(("PyTorch 1.13.1: import torch", measure(["/usr/bin/python3", "-c", "import torch"], args.runs)))
        torch_rows.append(("PyTorch 1.13.1: all tables", measure(["/usr/bin/python3", "-c", TORCH_ALL_TABLES], args.runs)))

    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, {platform.platform()}")
    print(f"median of {args.runs} runs; peak = max resident set size\n")
    print(f"{'job':48} {'wall':>9} {'peak':>10}")
    for name, (wall, peak) in rows + torch_rows:
        print(f"{name:48} {wall * 1000:7.0f}ms {peak:8.1f}MiB")
    print("\nin-process phases (ms):")
    for source, p in phase_report.items():
        label = os.path.basename(source)
        print(f"  {label:24} {p['operators']:5} ops  load {p['load_ms']:7.1f}  "
              f"compute-all {p['compute_all_ms']:6.1f}  render-all {p['render_all_ms']:6.1f}")
    if torch_rows:
        torch_wall, torch_peak = torch_rows[-1][1]
        ours_wall, ours_peak = rows[2][1]  # all tables, builtin:1.13.1: the same job
        print(f"\nsame job (every table of 1.13.1): PyTorch {torch_wall:.2f}s / {torch_peak:.0f}MiB, "
              f"dispatchctl {ours_wall:.3f}s / {ours_peak:.0f}MiB -> "
              f"{torch_wall / max(ours_wall, 1e-3):.0f}x faster, {torch_peak / ours_peak:.0f}x less memory")
    else:
        print("\n(PyTorch not installed for /usr/bin/python3: no side-by-side ratio)")


if __name__ == "__main__":
    main()
