"""Shared by the Python module's tests: the CLI binary, the source tree, and one CLI run's JSON."""
import json
import os
import pathlib
import subprocess

import pytest

ROOT = pathlib.Path(os.environ.get("DISPATCHCTL_SOURCE_DIR", pathlib.Path(__file__).resolve().parents[2]))
BIN = os.environ.get("DISPATCHCTL_BIN", str(ROOT / "build" / "app" / "dispatchctl"))


def run_cli(args, cwd=None):
    """(exit status, stdout, stderr) of the dispatchctl binary."""
    done = subprocess.run([BIN, *args], capture_output=True, text=True, cwd=cwd,
                          env={k: v for k, v in os.environ.items() if k != "COLUMNS"})
    return done.returncode, done.stdout, done.stderr


def cli_json(args, cwd=None):
    status, out, err = run_cli(args, cwd)
    assert out, f"dispatchctl {' '.join(args)}: exit {status}, no output: {err}"
    return json.loads(out)


def cli_error(args):
    """The one-line message of a CLI run that exits 2 ("dispatchctl: error: " removed)."""
    status, out, err = run_cli(args)
    assert status == 2, (status, out, err)
    lines = [line for line in err.splitlines() if line.startswith("dispatchctl: error: ")]
    assert len(lines) == 1, err
    return lines[0][len("dispatchctl: error: "):]


@pytest.fixture(scope="session")
def root():
    return ROOT
