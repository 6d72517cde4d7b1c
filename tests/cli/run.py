#!/usr/bin/python3
"""The one end-to-end harness for dispatchctl's command line.

Case files (cases/*.toml) hold [[case]] tables; tests.cmake registers each
case as a ctest test of the same name, which runs
    run.py --dispatchctl BIN --root SRC CASE_FILE NAME
A case runs `dispatchctl ARGS...` (after optional setup) and checks:
  exit = N                    exit status (required)
  stdout / stderr / output = [RE...]   each RE matches a line (re.M) of stdout,
                              stderr, or stdout+stderr
  no_stdout = [RE...]         no line of stdout matches
  stderr_lines = N            stderr has exactly N lines
  json = true                 stdout is one JSON document
  json_lines = true           stdout is JSON Lines: the document is the list of its lines' values
  json_equals = {"a.b" = V}   the JSON value at a dotted path equals V (as JSON: 1 == 1.0, key order
                              aside); a step `*` is any element of a list (some element must hold)
  json_matches = {"a.b" = RE} the string at a dotted path matches RE (re.search)
  json_count = {"a.b" = N}    the list at a dotted path has N elements ("" is the document)
  stdout_equals = FILE        stdout is byte-identical to FILE (gunzipped if .gz)
  absent = [GLOB...]          no file matches afterwards
  timeout = SECONDS           the command must finish in time (default 120)
  max_columns = N             no stdout line is longer than N characters
  env = {NAME = "VALUE"}      extra environment (COLUMNS is unset unless given)
  stdout_to = PATH            stdout goes to PATH (e.g. /dev/full) instead of being checked
  stdin = PATH                PATH's bytes are piped to the command's standard input
Before the command: setup = [[ARGS...], ...] (dispatchctl runs that must exit 0)
and setup_sh = "..." (a bash script; $DISPATCHCTL is the binary).
{root}, {tmp}, {manifests} and {here} expand in run, setup, setup_sh, cwd, env,
stdin, stdout_equals and absent; nowhere else (regexes keep their braces)."""
import argparse
import glob
import gzip
import json
import os
import pathlib
import re
import subprocess
import sys
import tempfile
import tomllib

KNOWN = {"name", "run", "exit", "stdout", "stderr", "output", "no_stdout", "stderr_lines", "json", "json_equals",
         "json_lines", "json_matches", "json_count",
         "stdout_equals", "absent", "timeout", "setup", "setup_sh", "cwd", "env", "max_columns",
         "stdout_to", "stdin"}


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--dispatchctl", required=True)
    p.add_argument("--root", required=True)
    p.add_argument("case_file")
    p.add_argument("name")
    a = p.parse_args()
    cases = tomllib.loads(pathlib.Path(a.case_file).read_text())["case"]
    matching = [c for c in cases if c["name"] == a.name]
    if len(matching) != 1:
        sys.exit(f"run.py: {len(matching)} cases named {a.name} in {a.case_file}")
    case = matching[0]
    unknown = set(case) - KNOWN
    if unknown or "exit" not in case or "run" not in case:
        sys.exit(f"run.py: case {a.name}: unknown fields {sorted(unknown)} or no run/exit")
    with tempfile.TemporaryDirectory() as tmp:
        sys.exit(run_case(case, a.dispatchctl, pathlib.Path(a.root), pathlib.Path(a.case_file).parent, tmp))


def values_at(doc, path):
    """Every value a dotted path reaches: `*` steps into each element of a list."""
    values = [doc]
    for step in path.split("."):
        reached = []
        for value in values:
            if isinstance(value, list):
                reached += value if step == "*" else [value[int(step)]] if -len(value) <= int(step) < len(value) else []
            elif isinstance(value, dict) and step in value:
                reached.append(value[step])
        values = reached
    return values


def same_json(a, b):
    """JSON equality: numbers by value (1 == 1.0), but true is not 1, and lists and objects element-wise."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same_json(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same_json(x, y) for x, y in zip(a, b))
    return a == b


def check_json(case, out):
    """What the case's json_* fields say about stdout, compared as JSON values."""
    problems = []
    try:
        doc = [json.loads(line) for line in out.splitlines()] if case.get("json_lines") else json.loads(out)
    except ValueError as e:
        return [f"stdout is not {'JSON Lines' if case.get('json_lines') else 'one JSON document'}: {e!r}"]
    for path, want in case.get("json_equals", {}).items():
        values = values_at(doc, path)
        if not any(same_json(v, want) for v in values):
            problems.append(f"JSON {path} is {values[:3]!r}{' ...' if len(values) > 3 else ''}, expected {want!r}")
    for path, count in case.get("json_count", {}).items():
        values = values_at(doc, path) if path else [doc]
        if not any(isinstance(v, list) and len(v) == count for v in values):
            problems.append(f"JSON {path or 'document'} has {[len(v) for v in values if isinstance(v, list)]} "
                            f"elements, expected {count}")
    for path, pattern in case.get("json_matches", {}).items():
        values = values_at(doc, path)
        if not any(isinstance(v, str) and re.search(pattern, v) for v in values):
            problems.append(f"JSON {path} is {values[:3]!r}, expected a string matching /{pattern}/")
    return problems


def run_case(case, dispatchctl, root, here, tmp):
    values = {"{root}": str(root), "{tmp}": tmp, "{manifests}": str(root / "tests/manifests"), "{here}": str(here)}

    def expand(text):
        for k, v in values.items():
            text = text.replace(k, v)
        return text

    env = dict(os.environ, DISPATCHCTL=dispatchctl)
    env.pop("COLUMNS", None)  # output width: 80 unless a case sets it
    env.update({name: expand(value) for name, value in case.get("env", {}).items()})
    timeout = case.get("timeout", 120)
    if "setup_sh" in case:
        subprocess.run(["bash", "-euo", "pipefail", "-c", expand(case["setup_sh"])], check=True, env=env, cwd=tmp)
    for args in case.get("setup", []):
        done = subprocess.run([dispatchctl, *map(expand, args)], capture_output=True, timeout=timeout)
        if done.returncode != 0:
            print("setup failed:", args, done.stderr.decode(errors="replace"))
            return 1
    command = [dispatchctl, *map(expand, case["run"])]
    try:
        sink = open(expand(case["stdout_to"]), "wb") if "stdout_to" in case else subprocess.PIPE
        piped = pathlib.Path(expand(case["stdin"])).read_bytes() if "stdin" in case else None
        run = subprocess.run(command, input=piped, stdout=sink, stderr=subprocess.PIPE, timeout=timeout, env=env,
                             cwd=expand(case["cwd"]) if "cwd" in case else None)
    except subprocess.TimeoutExpired:
        print(f"FAIL: did not finish in {timeout} s:", " ".join(command))
        return 1
    out = (run.stdout or b"").decode(errors="replace")
    err = run.stderr.decode(errors="replace")
    problems = []
    if run.returncode != case["exit"]:
        problems.append(f"exit {run.returncode}, expected {case['exit']}")
    for stream, text in (("stdout", out), ("stderr", err), ("output", out + err)):
        for pattern in case.get(stream, []):
            if not re.search(pattern, text, re.M):
                problems.append(f"{stream} lacks /{pattern}/")
    if "max_columns" in case:
        wide = [line for line in out.splitlines() if len(line) > case["max_columns"]]
        if wide:
            problems.append(f"{len(wide)} stdout lines over {case['max_columns']} columns, e.g. {wide[0]!r}")
    for pattern in case.get("no_stdout", []):
        if re.search(pattern, out, re.M):
            problems.append(f"stdout has /{pattern}/")
    if "stderr_lines" in case and len(err.splitlines()) != case["stderr_lines"]:
        problems.append(f"stderr has {len(err.splitlines())} lines, expected {case['stderr_lines']}")
    if case.get("json") or case.get("json_lines") or set(case) & {"json_equals", "json_matches", "json_count"}:
        problems += check_json(case, out)
    if "stdout_equals" in case:
        path = expand(case["stdout_equals"])
        want = gzip.open(path).read() if path.endswith(".gz") else pathlib.Path(path).read_bytes()
        if run.stdout != want:
            at = next((i for i, (x, y) in enumerate(zip(run.stdout, want)) if x != y), min(len(run.stdout), len(want)))
            line = run.stdout[:at].count(b"\n") + 1
            problems.append(f"stdout differs from {path} at line {line} ({len(run.stdout)} vs {len(want)} bytes)")
    for pattern in case.get("absent", []):
        found = glob.glob(expand(pattern))
        if found:
            problems.append(f"left behind: {found}")
    if problems:
        print("command:", " ".join(command))
        print("--- stdout\n" + out[:4000] + "--- stderr\n" + err[:4000])
        for problem in problems:
            print("FAIL:", problem)
        return 1
    print("ok:", " ".join(command))
    return 0


if __name__ == "__main__":
    main()
