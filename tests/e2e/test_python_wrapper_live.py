#!/usr/bin/python3
"""Issue 33: `-m 'python:WRAPPER'` reaches a torch behind a wrapper (a chroot, a container).

The exporter is fed on standard input and writes to standard output, so an interpreter that
cannot open host files runs it. fixtures/python_elsewhere.sh is such an interpreter (Debian's
python3 refusing any host path, as `chroot DIR python3` would fail on one), given as two words,
`python:/bin/sh …/python_elsewhere.sh`:
  * `show aten::add --format torch-table` through it equals `-m builtin:1.13.1` (real 1.13.1);
  * the export is cached: the second run is a cache hit (-v) and starts no exporter;
  * an interpreter that exits 2 is one error line naming it, exit 2."""

import os
import shutil

from e2e_common import arguments, fail, run_dispatchctl

HERE = os.path.dirname(os.path.abspath(__file__))
WRAPPER = os.path.join(HERE, "fixtures", "python_elsewhere.sh")


def main():
    a = arguments(__doc__)
    cache = os.path.join(a.workdir, "cache")
    shutil.rmtree(cache, ignore_errors=True)  # a run before this one left its export
    env = dict(os.environ, XDG_CACHE_HOME=cache)
    source = "python:/bin/sh " + WRAPPER

    def run(argv, expect=0):
        return run_dispatchctl(a.dispatchctl, argv, expect, env=env, cwd=a.workdir)

    want, _ = run(["show", "aten::add", "--format", "torch-table", "-m", "builtin:1.13.1"])
    got, err = run(["-v", "show", "aten::add", "--format", "torch-table", "-m", source])
    if got != want:
        fail("through the wrapper:\n%s\nbuiltin:1.13.1:\n%s" % (got[:1500], want[:1500]))
    if "running the exporter" not in err:
        fail("the first run did not export: %s" % err[-1000:])
    again, err = run(["-v", "show", "aten::add", "--format", "torch-table", "-m", source])
    if again != want or "cache hit" not in err:
        fail("the second run: cache hit expected\n%s" % err[-1000:])
    _, err = run(["show", "aten::add", "-m", "python:/bin/sh -c 'exit 2'"], expect=2)
    if len(err.splitlines()) != 1 or "python:/bin/sh -c 'exit 2'" not in err:
        fail("a failing wrapper: %r" % err)
    print("PASS: the exporter ran behind a wrapper that sees no host file; cached; failures named")


if __name__ == "__main__":
    main()
