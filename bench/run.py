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
    parser.add_argument("--big-operators", type=int, default=1_000_000,
                        help="operators of the generated large manifest (0: skip that job)")
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
    io_rows(tool, args.runs, args.big_operators)


# --------------------------------------------------------------------------
# Large manifests, diffs and -m python (issue 14, the I/O part): each job with
# wall, CPU and peak memory, and its ratio to the target (<= 1.00 meets it).

def measure_cpu(cmd, runs, env=None, ok=(0, 1)):
    """Median wall and CPU seconds (user+sys, children included) and max peak MiB."""
    walls, cpus, peaks = [], [], []
    for _ in range(runs):
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
        _, status, usage = os.wait4(proc.pid, 0)
        walls.append(time.perf_counter() - start)
        if os.waitstatus_to_exitcode(status) not in ok:
            sys.exit(f"failed: {' '.join(cmd)}\n{proc.stderr.read().decode()}")
        cpus.append(usage.ru_utime + usage.ru_stime)
        peaks.append(usage.ru_maxrss / 1024)
    return statistics.median(walls), statistics.median(cpus), max(peaks)


def io_rows(tool, runs, big_operators):
    # (job, wall, cpu, peak MiB, target text, ratio by wall, ratio by CPU: on a
    # loaded machine wall time is mostly waiting; CPU time is what the job costs)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        if big_operators:
            big = os.path.join(tmp, "big.json")
            subprocess.run([sys.executable, os.path.join(ROOT, "bench", "gen_big_manifest.py"), big,
                            "--operators", str(big_operators)], check=True)
            size_mib = os.path.getsize(big) / 2**20
            wall, cpu, peak = measure_cpu([tool, "show", "x::op_1", "-m", big], max(1, min(runs, 3)))
            rows.append((f"show x::op_1 -m big.json ({big_operators} ops, {size_mib:.0f} MiB)", wall, cpu, peak,
                         "<= 10 s", wall / 10, cpu / 10))
            rows.append(("  its peak memory", wall, cpu, peak, f"<= {2 * size_mib:.0f} MiB (2x file)",
                         peak / (2 * size_mib), None))
            os.remove(big)
        wall, cpu, peak = measure_cpu([tool, "diff", "builtin:1.13.1", "builtin:2.14.1", "--format", "json"], runs)
        rows.append(("diff builtin:1.13.1 builtin:2.14.1 --format json", wall, cpu, peak, "<= 1 s", wall / 1, cpu / 1))
        if torch_available():
            env = dict(os.environ, XDG_CACHE_HOME=os.path.join(tmp, "cache"))
            python = [tool, "show", "aten::add", "-m", "python:/usr/bin/python3"]
            wall, cpu, peak = measure_cpu(python, 1, env)  # uncached: the export
            imp_wall, imp_cpu, _ = measure_cpu(["/usr/bin/python3", "-c", "import torch"], runs)
            rows.append(("-m python, uncached (exports)", wall, cpu, peak,
                         f"<= import torch + 1 s ({imp_wall:.2f} s)", wall / (imp_wall + 1),
                         cpu / (imp_cpu + 1)))
            cached = [os.path.join(tmp, "cache", "dispatchctl", n)
                      for n in os.listdir(os.path.join(tmp, "cache", "dispatchctl")) if n.startswith("export-")]
            f_wall, f_cpu, f_peak = measure_cpu([tool, "show", "aten::add", "-m", cached[0]], runs)
            rows.append(("show aten::add -m EXPORT.json (same manifest)", f_wall, f_cpu, f_peak, "", None, None))
            wall, cpu, peak = measure_cpu(python, runs, env)
            rows.append(("-m python, cached", wall, cpu, peak, "<= file + 10 ms",
                         max(wall - f_wall, 0) / 0.010, max(cpu - f_cpu, 0) / 0.010))
    print(f"\nlarge manifests, diffs and -m python (median of {runs} runs; ratio <= 1.00 meets the target):")
    print(f"{'job':52} {'wall':>8} {'cpu':>8} {'peak':>10}  {'target':30} ratio (wall, cpu)")
    for job, wall, cpu, peak, target, by_wall, by_cpu in rows:
        shown = " ".join("" if r is None else f"{r:5.2f}" for r in (by_wall, by_cpu))
        print(f"{job:52} {wall:7.2f}s {cpu:7.2f}s {peak:8.1f}MiB  {target:30} {shown}")


if __name__ == "__main__":
    main()
