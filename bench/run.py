#!/usr/bin/python3
"""dispatchctl benchmark: wall time, CPU time and peak memory of whole jobs,
next to real PyTorch's time for the same job, as ratios from one run (issue 14).

  bench/run.py [--build build] [--runs 5] [--skip-io]

Measures (median of --runs; CPU = user + system of the process):
  * `show '*' --format torch-table` on builtin:1.13.1 and builtin:2.14.1 (the full job)
  * `show aten::add` (builtin 2.14.1), process start included
  * `has-kernel aten::std --works` at CPU and at SparseCPU (recorded calls followed)
  * `check` of a whole built-in registry
  * the torchgen gate (issue 31) on 2.14.1's own YAML: the lint alone
    (`check torchgen:Y`), and `check --base` as a PR gate runs it (the base
    and the change each parsed, refused, predicted and compared)
  * `report --format json` and the HTML page over builtin:2.14.1
  * the same from a JSON manifest (the import of the real 2.14.1 dump)
  * in-process phases: load / compute all tables / render all (bench_phases)
  * PyTorch 1.13.1 (/usr/bin/python3): `import torch` alone, import plus one
    `_dispatch_dump_table`, and import plus `_dispatch_dump_table` over every operator
"""
import argparse
import gzip
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def peak_rss(cmd, env=None):
    """Peak RSS in MiB of one run of `cmd`, read by GNU time, or None without it.

    rusage from wait4 would report this Python's own peak for a small job:
    Linux records the peak of the memory an exec replaces (here the forked
    or vfork-shared copy of this interpreter) in the new program's maxrss.
    /usr/bin/time is small, so what it reports is the job's own peak."""
    if not os.path.exists("/usr/bin/time"):
        return None
    with tempfile.NamedTemporaryFile("r") as out:
        subprocess.run(["/usr/bin/time", "-f", "%M", "-o", out.name] + cmd, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, env=env)
        text = out.read().strip().splitlines()
    return int(text[-1]) / 1024 if text and text[-1].isdigit() else None


def measure(cmd, runs, ok_codes=(0,), env=None, peak_run=True):
    """(median wall s, median CPU s, peak RSS MiB) of `cmd` over `runs`; the peak from one
    more run under GNU time (peak_run=False: when a second run would not do the same work)."""
    walls, cpus, peaks = [], [], []
    for _ in range(runs):
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
        _, status, usage = os.wait4(proc.pid, 0)
        walls.append(time.perf_counter() - start)
        proc.returncode = os.waitstatus_to_exitcode(status)
        if proc.returncode not in ok_codes:
            sys.exit(f"failed: {' '.join(cmd)}\n{proc.stderr.read().decode()}")
        cpus.append(usage.ru_utime + usage.ru_stime)
        peaks.append(usage.ru_maxrss / 1024)
    peak = peak_rss(cmd, env) if peak_run else None
    return statistics.median(walls), statistics.median(cpus), peak if peak is not None else max(peaks)


def torch_available():
    return subprocess.run(["/usr/bin/python3", "-c", "import torch"],
                          capture_output=True).returncode == 0


TORCH_ALL_TABLES = """
import torch
names = sorted(torch._C._dispatch_get_registrations_for_dispatch_key(""))
out = [torch._C._dispatch_dump_table(n) for n in names]
"""
TORCH_ONE_TABLE = """
import torch
out = torch._C._dispatch_dump_table("aten::add.Tensor")
"""


def core_rows(tool, runs):
    """The built-in registries: (name, measurement, PyTorch job it is compared with, goal)."""
    rows = []
    for version in ("1.13.1", "2.14.1"):
        rows.append((f"all tables, builtin:{version}",
                     measure([tool, "show", "*", "--format", "torch-table", "-m", f"builtin:{version}"], runs),
                     "all tables", "<= 25 ms, >= 60x, <= 20 MiB"))
    rows.append(("show aten::add (builtin 2.14.1)", measure([tool, "show", "aten::add"], runs),
                 "one table", "<= 5 ms"))
    # What starting any process costs on this machine: the floor under the 5 ms.
    rows.append(("process start floor: /bin/true", measure(["/bin/true"], runs), "one table", ""))
    # Followers of recorded composite calls on a filtered load: the main
    # recording, and one kind's (its section alone is decoded, builtin/pack.h).
    rows.append(("has-kernel aten::std --key CPU --works",
                 measure([tool, "has-kernel", "aten::std", "--key", "CPU", "--works"], runs, (0, 1)), "one table", ""))
    rows.append(("has-kernel aten::std --key SparseCPU --works",
                 measure([tool, "has-kernel", "aten::std", "--key", "SparseCPU", "--works"], runs, (0, 1)),
                 "one table", ""))
    rows.append(("show aten::add.Tensor --format torch-table",
                 measure([tool, "show", "aten::add.Tensor", "--format", "torch-table"], runs), "one table", ""))
    # The coverage report of every operator x default key (~73,000 cells; issue 22:
    # 496 ms CPU when the JSON was one nlohmann document, ~110 ms written as it goes).
    rows.append(("report --format json (builtin 2.14.1)",
                 measure([tool, "report", "--format", "json", "-m", "builtin:2.14.1"], runs), "all tables",
                 "<= 150 ms CPU"))
    rows.append(("report (HTML page, builtin 2.14.1)",
                 measure([tool, "report", "-m", "builtin:2.14.1"], runs), "all tables", ""))
    # Issue 30: the outcome model follows every recorded composite call (and each
    # autograd row's backend row) over a real PrivateUse1 backend; within 2x of the
    # report above before graphs were followed (measured, median of 9 under load:
    # 34 -> 48 ms CPU builtin alone, 18 -> 27 ms for this backend at four keys).
    # One follower per command run (a memo shared by every row) and report's
    # needs at its backend key, against main's binary, 9 runs interleaved at load
    # average 17 (2026-12-02): report HTML builtin:2.14.1 231 -> 229 ms CPU (the
    # needs at CPU included), JSON 65 -> 77 ms, this backend at four keys 40 -> 47 ms
    # (needs at PrivateUse1, forward and backward), query --key PrivateUse1 --fails
    # over it 277 -> 156 ms, diff builtin vs builtin + this backend 72 -> 70 ms.
    backend = tempfile.NamedTemporaryFile("wb", suffix=".json", delete=False)
    with gzip.open(os.path.join(ROOT, "tests", "composite_calls", "backend_3.json.gz")) as packed:
        backend.write(packed.read())
    backend.close()
    rows.append(("report --format json, a PrivateUse1 backend over builtin 2.14.1 (composite calls followed)",
                 measure([tool, "report", "--format", "json", "-m", "builtin:2.14.1", "-m", backend.name, "--key",
                          "PrivateUse1", "--key", "AutogradPrivateUse1", "--key", "CPU", "--key", "Meta"], runs),
                 "all tables", "<= 2x report"))
    rows.append(("query --key PrivateUse1 --fails, the same backend (one follower for every row)",
                 measure([tool, "query", "--key", "PrivateUse1", "--fails", "--count", "-m", "builtin:2.14.1", "-m",
                          backend.name], runs), "all tables", ""))
    os.unlink(backend.name)
    # trace --calls over the 2,050 recorded real calls (issue 22), one process.
    sys.path.insert(0, os.path.join(ROOT, "tests", "trace_goldens"))
    from check_verdicts import request
    golden = json.load(open(os.path.join(ROOT, "tests", "trace_goldens", "real_calls_1.13.1.json")))
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as calls:
        calls.writelines(json.dumps(request(c)) + "\n" for c in golden["calls"])
    rows.append((f"trace --calls ({len(golden['calls'])} real calls, builtin:1.13.1)",
                 measure([tool, "trace", "--calls", calls.name, "-m", "builtin:1.13.1"], runs, (0, 1)),
                 "", ""))
    os.unlink(calls.name)
    for version in ("1.13.1", "2.14.1"):
        # Exit 1: the real registries have findings.
        rows.append((f"check builtin:{version}", measure([tool, "check", f"builtin:{version}"], runs, (0, 1)),
                     "all tables", "<= 100 ms"))
    return rows


def torchgen_rows(tool, runs, tmp):
    """The YAML gate on the unchanged 2.14.1 YAML (tests/data's shipped copy):
    what every `check --base` of a PR costs before its edit's own findings."""
    yaml = os.path.join(tmp, "torchgen-2.14.1")
    os.mkdir(yaml)
    shipped = os.path.join(ROOT, "tests", "data", "torch-2.14.1", "torchgen")
    for name in ("native_functions.yaml", "tags.yaml", "derivatives.yaml", "deprecated.yaml"):
        with gzip.open(os.path.join(shipped, name + ".gz")) as packed, open(os.path.join(yaml, name), "wb") as out:
            out.write(packed.read())
    return [
        ("check torchgen:Y (the lint alone, 2.14.1 YAML)",
         measure([tool, "check", f"torchgen:{yaml}"], runs, (0, 1)), "", ""),
        ("check builtin:2.14.1 torchgen:Y --base (unchanged)",
         measure([tool, "check", "builtin:2.14.1", f"torchgen:{yaml}", "--base", "builtin:2.14.1", "--base",
                  f"torchgen:{yaml}"], runs, (0, 1)), "", "<= 1 s CPU"),
    ]


def manifest_rows(tool, runs, tmp):
    """Jobs that read a JSON manifest (the import of the real 2.14.1 dump)."""
    manifest = os.path.join(tmp, "torch-2.14.1.json")
    subprocess.run([tool, "import", "torch-dump",
                    os.path.join(ROOT, "lib/builtin/data/torch-2.14.1/registry_state.txt.gz"),
                    "--fallbacks", os.path.join(ROOT, "lib/builtin/data/torch-2.14.1/fallbacks.json"),
                    "--torch-version", "2.14.1", "-o", manifest], check=True, capture_output=True)
    rows = [("all tables, 2.14.1 JSON manifest",
             measure([tool, "show", "*", "--format", "torch-table", "-m", manifest], runs), "all tables", "")]
    return rows, [manifest]


def torch_rows(runs):
    if not torch_available():
        return {}
    return {
        "import torch": measure(["/usr/bin/python3", "-c", "import torch"], runs),
        "one table": measure(["/usr/bin/python3", "-c", TORCH_ONE_TABLE], runs),
        "all tables": measure(["/usr/bin/python3", "-c", TORCH_ALL_TABLES], runs),
    }


def phase_medians(phases, sources, runs):
    """bench_phases per source in a process of its own, median of `runs` per phase.
    Each load then starts cold, as the CLI's does: a second load in one process
    reuses the heap the first one grew (page faults already taken), which made
    builtin:1.13.1, loaded first, look 2.4x slower to load than 2.14.1."""
    report = {}
    for source in sources:
        samples = [json.loads(subprocess.run([phases, source], check=True, capture_output=True,
                                             text=True).stdout)[source] for _ in range(runs)]
        report[source] = {key: statistics.median(s[key] for s in samples) for key in samples[0]}
    return report


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--big-operators", type=int, default=1_000_000,
                        help="operators of the generated large manifest (0: skip that job)")
    parser.add_argument("--skip-io", action="store_true",
                        help="without the large-manifest, diff and -m python jobs (minutes)")
    args = parser.parse_args()
    tool = os.path.join(args.build, "app", "dispatchctl")
    phases = os.path.join(args.build, "bench", "bench_phases")
    for binary in (tool, phases):
        if not os.path.exists(binary):
            sys.exit(f"{binary} not built; run tools/bootstrap first")

    with tempfile.TemporaryDirectory() as tmp:
        rows = core_rows(tool, args.runs)
        more, phase_sources = manifest_rows(tool, args.runs, tmp)
        rows += more
        rows += torchgen_rows(tool, args.runs, tmp)
        phase_report = phase_medians(phases, ["builtin:1.13.1", "builtin:2.14.1", *phase_sources], args.runs)
    torch = torch_rows(args.runs)

    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, {platform.platform()}, "
          f"load average {os.getloadavg()[0]:.2f}")
    print(f"median of {args.runs} runs; CPU = user+system; peak = max resident set size; "
          f"x = PyTorch 1.13.1's wall time for the job named / ours\n")
    print(f"{'job':44} {'wall':>8} {'cpu':>8} {'peak':>9}  {'vs PyTorch':>22}  goal")
    for name, (wall, cpu, peak), torch_job, goal in rows:
        ratio = ""
        if torch_job in torch:
            ratio = f"{torch[torch_job][0] / max(wall, 1e-4):6.0f}x ({torch_job})"
        print(f"{name:44} {wall * 1000:6.1f}ms {cpu * 1000:6.1f}ms {peak:6.1f}MiB  {ratio:>22}  {goal}")
    for name, (wall, cpu, peak) in torch.items():
        print(f"{'PyTorch 1.13.1: ' + name:44} {wall * 1000:6.0f}ms {cpu * 1000:6.0f}ms {peak:6.1f}MiB")
    if not torch:
        print("(PyTorch not installed for /usr/bin/python3: no side-by-side ratio)")
    print("\nin-process phases (ms):")
    for source, p in phase_report.items():
        label = os.path.basename(source)
        print(f"  {label:24} {p['operators']:5} ops  load {p['load_ms']:7.1f}  "
              f"compute-all {p['compute_all_ms']:6.1f}  render-all {p['render_all_ms']:6.1f}  "
              f"page faults: load {p['load_faults']:5.0f}, compute+render {p['compute_render_faults']:4.0f}")
    if not args.skip_io:
        io_rows(tool, args.runs, args.big_operators)


# --------------------------------------------------------------------------
# Large manifests, diffs and -m python (issue 14, the I/O part): each job with
# wall, CPU and peak memory, and its ratio to the target (<= 1.00 meets it).

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
            wall, cpu, peak = measure([tool, "show", "x::op_1", "-m", big], max(1, min(runs, 3)), (0, 1))
            rows.append((f"show x::op_1 -m big.json ({big_operators} ops, {size_mib:.0f} MiB)", wall, cpu, peak,
                         "<= 10 s", wall / 10, cpu / 10))
            rows.append(("  its peak memory", wall, cpu, peak, f"<= {2 * size_mib:.0f} MiB (2x file)",
                         peak / (2 * size_mib), None))
            os.remove(big)
        wall, cpu, peak = measure([tool, "diff", "builtin:1.13.1", "builtin:2.14.1", "--format", "json"], runs, (0, 1))
        rows.append(("diff builtin:1.13.1 builtin:2.14.1 --format json", wall, cpu, peak, "<= 1 s", wall / 1, cpu / 1))
        if torch_available():
            rows += python_rows(tool, runs, tmp)
    print(f"\nlarge manifests, diffs and -m python (median of {runs} runs; ratio <= 1.00 meets the target):")
    print(f"{'job':52} {'wall':>8} {'cpu':>8} {'peak':>10}  {'target':30} ratio (wall, cpu)")
    for job, wall, cpu, peak, target, by_wall, by_cpu in rows:
        shown = " ".join("" if r is None else f"{r:5.2f}" for r in (by_wall, by_cpu))
        print(f"{job:52} {wall:7.2f}s {cpu:7.2f}s {peak:8.1f}MiB  {target:30} {shown}")


def python_rows(tool, runs, tmp):
    """-m python uncached (a fresh cache folder per run, so every run exports), cached, and
    `dispatchctl export` (with the recorded dumps), next to `import torch` from the same runs."""
    python = [tool, "show", "aten::add", "-m", "python:/usr/bin/python3"]
    uncached, imports = [], []
    for run in range(runs):  # interleaved with `import torch`, so both see the same load
        env = dict(os.environ, XDG_CACHE_HOME=os.path.join(tmp, f"cache-{run}"))
        uncached.append(measure(python, 1, env=env, peak_run=False))
        imports.append(measure(["/usr/bin/python3", "-c", "import torch"], 1))
    wall, cpu = (statistics.median(m[i] for m in uncached) for i in range(2))
    peak = (peak_rss(python, dict(os.environ, XDG_CACHE_HOME=os.path.join(tmp, "cache-peak")))
            or max(m[2] for m in uncached))
    imp_wall, imp_cpu = (statistics.median(m[i] for m in imports) for i in range(2))
    rows = [("-m python, uncached (exports)", wall, cpu, peak, f"<= import torch + 1 s ({imp_wall:.2f} s)",
             wall / (imp_wall + 1), cpu / (imp_cpu + 1))]
    export = os.path.join(tmp, "export.json")
    wall, cpu, peak = measure([tool, "export", "--python", "/usr/bin/python3", "-o", export], runs)
    rows.append(("export -o FILE (recorded dumps too)", wall, cpu, peak, "", None, None))
    env = dict(os.environ, XDG_CACHE_HOME=os.path.join(tmp, "cache-0"))
    folder = os.path.join(tmp, "cache-0", "dispatchctl")
    cached = [os.path.join(folder, n) for n in os.listdir(folder) if n.startswith("export-")]
    # Interleaved, so both see the same load: the file alone, then the same file through -m python.
    file_runs, cached_runs = [], []
    for _ in range(runs):
        file_runs.append(measure([tool, "show", "aten::add", "-m", cached[0]], 1))
        cached_runs.append(measure(python, 1, env=env))
    f_wall, f_cpu, f_peak = (statistics.median(m[i] for m in file_runs) for i in range(3))
    wall, cpu, peak = (statistics.median(m[i] for m in cached_runs) for i in range(3))
    rows.append(("show aten::add -m EXPORT.json (same manifest)", f_wall, f_cpu, f_peak, "", None, None))
    rows.append(("-m python, cached", wall, cpu, peak, "<= file + 10 ms",
                 max(wall - f_wall, 0) / 0.010, max(cpu - f_cpu, 0) / 0.010))
    return rows


if __name__ == "__main__":
    main()
