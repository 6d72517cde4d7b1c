"""Shared helpers of the end-to-end tests (run with Debian's /usr/bin/python3,
which has PyTorch 1.13.1). Golden output always comes from the live PyTorch."""

import argparse
import difflib
import importlib.util
import os
import subprocess
import sys

# The checkout these tests belong to (schemas/, lib/builtin/data/).
REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def require_torch():
    """The e2e tests never skip: without torch they fail, loudly."""
    try:
        import torch  # noqa: F401
    except Exception as e:  # noqa: BLE001
        print("FAIL: cannot import torch in %s (%s: %s).\n"
              "The end-to-end tests need Debian's python3-torch (PyTorch 1.13.1) for /usr/bin/python3;\n"
              "install it with `tools/bootstrap --test` (or `apt-get install python3-torch`)."
              % (sys.executable, type(e).__name__, e), file=sys.stderr)
        sys.exit(1)
    return torch


def arguments(description, extra=None):
    p = argparse.ArgumentParser(description=description)
    p.add_argument("--dispatchctl", required=True, help="the dispatchctl binary")
    p.add_argument("--exporter", required=True,
                   help="the exporter as built (BUILD/tools/dispatchctl-export.py) or its source")
    p.add_argument("--workdir", required=True, help="scratch folder for exports and outputs")
    if extra:
        extra(p)
    args = p.parse_args()
    os.makedirs(args.workdir, exist_ok=True)
    return args


def load_exporter(path):
    # As `python3 PATH` would: the source form imports its package beside it.
    folder = os.path.dirname(os.path.abspath(path))
    if folder not in sys.path:
        sys.path.insert(0, folder)
    spec = importlib.util.spec_from_file_location("dispatchctl_export", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def run_exporter(exporter_path, argv):
    """Runs the exporter in this very process, so it sees this live registry."""
    module = load_exporter(exporter_path)
    rc = module.main(argv)
    if rc != 0:
        print("FAIL: dispatchctl-export %s exited %d" % (" ".join(argv), rc), file=sys.stderr)
        sys.exit(1)


def fail(text):
    """One FAIL line and exit 1 (the test's verdict)."""
    print("FAIL: " + text)
    sys.exit(1)


def run_dispatchctl(binary, argv, expect=0, env=None, cwd=None):
    """dispatchctl ARGV with its exit status checked: (stdout, stderr) as text."""
    proc = subprocess.run([binary] + argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                          env=env, cwd=cwd)
    if proc.returncode != expect:
        fail("dispatchctl %s: exit %d, expected %d\n%s" % (" ".join(argv), proc.returncode, expect,
                                                          proc.stderr[-2000:]))
    return proc.stdout, proc.stderr


def dispatchctl(binary, args):
    proc = subprocess.run([binary] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if proc.returncode != 0:
        print("FAIL: dispatchctl %s exited %d:\n%s" % (" ".join(args), proc.returncode,
                                                       proc.stderr.decode(errors="replace")),
              file=sys.stderr)
        sys.exit(1)
    return proc.stdout.decode("utf-8")


def split_blocks(text):
    """'=== NAME' separated output -> {NAME: text}; the text keeps its final newline."""
    blocks = {}
    name = None
    lines = []
    for line in text.splitlines(keepends=True):
        if line.startswith("=== "):
            if name is not None:
                blocks[name] = "".join(lines)
            name = line[4:].rstrip("\n")
            lines = []
        else:
            if name is None:
                raise ValueError("output does not start with '=== NAME': %r" % line)
            lines.append(line)
    if name is not None:
        blocks[name] = "".join(lines)
    return blocks


def minimal_diff(expected, actual, label):
    return "".join(difflib.unified_diff(expected.splitlines(keepends=True),
                                        actual.splitlines(keepends=True),
                                        "pytorch/" + label, "dispatchctl/" + label, n=1))


def compare(live, ours, what, limit=5):
    """live, ours: {op: text}. Returns the list of mismatching op names and prints
    a minimal diff for the first `limit`."""
    bad = []
    for op in sorted(set(live) | set(ours)):
        if op not in ours:
            bad.append(op)
            if len(bad) <= limit:
                print("MISMATCH %s %s: dispatchctl does not list the operator" % (what, op))
            continue
        if op not in live:
            bad.append(op)
            if len(bad) <= limit:
                print("MISMATCH %s %s: PyTorch does not know the operator" % (what, op))
            continue
        if live[op] != ours[op]:
            bad.append(op)
            if len(bad) <= limit:
                print("MISMATCH %s %s:\n%s" % (what, op, minimal_diff(live[op], ours[op], op)))
    return bad


class StderrSilenced:
    """Silences fd 2 (c10's override warnings are printed by C++ straight to it)."""

    def __enter__(self):
        sys.stderr.flush()
        self.saved = os.dup(2)
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 2)
        os.close(devnull)
        return self

    def __exit__(self, *exc):
        sys.stderr.flush()
        os.dup2(self.saved, 2)
        os.close(self.saved)
        return False
