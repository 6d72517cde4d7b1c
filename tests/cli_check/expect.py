#!/usr/bin/python3
"""Runs one dispatchctl command and checks its exit status and output.
usage: expect.py --exit N [--stdout RE]... [--no-stdout RE] [--stderr RE]
                 [--stderr-lines N] [--json] [--cwd DIR] -- COMMAND..."""
import argparse
import json
import re
import subprocess
import sys

p = argparse.ArgumentParser()
p.add_argument("--exit", type=int, required=True)
p.add_argument("--stdout", action="append", default=[])
p.add_argument("--no-stdout", action="append", default=[])
p.add_argument("--stderr", action="append", default=[])
p.add_argument("--stderr-lines", type=int)
p.add_argument("--json", action="store_true")
p.add_argument("--cwd")
p.add_argument("command", nargs=argparse.REMAINDER)
a = p.parse_args()
command = a.command[1:] if a.command[:1] == ["--"] else a.command
run = subprocess.run(command, capture_output=True, text=True, cwd=a.cwd)
problems = []
if run.returncode != a.exit:
    problems.append(f"exit {run.returncode}, expected {a.exit}")
for pattern in a.stdout:
    if not re.search(pattern, run.stdout, re.M):
        problems.append(f"stdout lacks /{pattern}/")
for pattern in a.no_stdout:
    if re.search(pattern, run.stdout, re.M):
        problems.append(f"stdout has /{pattern}/")
for pattern in a.stderr:
    if not re.search(pattern, run.stderr, re.M):
        problems.append(f"stderr lacks /{pattern}/")
if a.stderr_lines is not None and len(run.stderr.splitlines()) != a.stderr_lines:
    problems.append(f"stderr has {len(run.stderr.splitlines())} lines, expected {a.stderr_lines}")
if a.json:
    try:
        json.loads(run.stdout)
    except ValueError as e:
        problems.append(f"stdout is not JSON: {e}")
if problems:
    print("command:", " ".join(command))
    print("--- stdout\n" + run.stdout[:4000] + "--- stderr\n" + run.stderr[:4000])
    for problem in problems:
        print("FAIL:", problem)
    sys.exit(1)
print("ok:", " ".join(command))
