#!/usr/bin/python3
"""Issue 33: tools/record-model-ops.py with Debian's live torch 1.13.1.

  * a training step (tests/cli/fixtures/ops/mlp_step.py: Linear, SiLU, cross_entropy, backward)
    records the overloads that reached the dispatcher below autograd: the forward's aten::addmm
    and aten::silu, the backward's aten::silu_backward and aten::mm, the CompositeImplicitAutograd
    aten::linear decomposed (not recorded); exact names (aten::addmm, never aten::addmm.out);
  * `dispatchctl query --ops-from LIST -m builtin:1.13.1 --key CPU --format json` takes the list
    as written: every name is an operator of the real 1.13.1 registry and none fails at CPU (the
    step just ran on CPU);
  * --tag core on 1.13.1 (no such tag before 2.x) is one error line, exit 1, no file written;
    --tag nondeterministic_seeded lists aten::bernoulli (tagged so in 1.13.1), not aten::add.Tensor."""

import json
import os
import subprocess

from e2e_common import arguments, fail, run_dispatchctl

PYTHON = "/usr/bin/python3"
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
TOOL = os.path.join(ROOT, "tools", "record-model-ops.py")
STEP = os.path.join(ROOT, "tests", "cli", "fixtures", "ops", "mlp_step.py")


def main():
    a = arguments(__doc__)
    ops_file = os.path.join(a.workdir, "mlp_ops.txt")
    subprocess.run([PYTHON, TOOL, "-o", ops_file, STEP], check=True)
    lines = open(ops_file).read().splitlines()
    if not lines[0].startswith("# operators mlp_step.py ran under torch 1.13"):
        fail("header: " + lines[0])
    names = [l for l in lines if not l.startswith("#")]
    if names != sorted(set(names)):
        fail("not sorted and unique")
    for want in ("aten::addmm", "aten::silu", "aten::silu_backward", "aten::mm", "aten::t",
                 "aten::nll_loss_forward", "aten::sum.dim_IntList"):
        if want not in names:
            fail("%s not recorded: %s" % (want, names))
    for unwanted in ("aten::linear", "aten::addmm.out", "aten::cross_entropy_loss"):
        if unwanted in names:
            fail("%s recorded (a composite decomposed above the backend, or not an exact name)" % unwanted)

    out, err = run_dispatchctl(a.dispatchctl, ["query", "--ops-from", ops_file, "-m", "builtin:1.13.1", "--key", "CPU",
                                               "--format", "json"])
    if err:
        fail("query --ops-from said on stderr:\n%s" % err)
    doc = json.loads(out)
    if doc["operators"] != names:
        fail("query lists %s, the file %s" % (doc["operators"], names))
    failing = sum(doc["outcomes"][o] for o in ("missing", "raises", "ambiguous", "composite_fails"))
    if failing:
        fail("%d of the step's operators fail at CPU: %s" % (failing, doc["outcomes"]))

    core_file = os.path.join(a.workdir, "core.txt")
    proc = subprocess.run([PYTHON, TOOL, "--tag", "core", "-o", core_file], stderr=subprocess.PIPE, text=True)
    if proc.returncode != 1 or "has no tag 'core'" not in proc.stderr or len(proc.stderr.splitlines()) != 1:
        fail("--tag core on 1.13.1: exit %d\n%s" % (proc.returncode, proc.stderr))
    if os.path.exists(core_file):
        fail("--tag core left %s behind" % core_file)
    seeded = os.path.join(a.workdir, "seeded.txt")
    subprocess.run([PYTHON, TOOL, "--tag", "nondeterministic_seeded", "-o", seeded], check=True)
    seeded_names = [l for l in open(seeded).read().splitlines() if not l.startswith("#")]
    if "aten::bernoulli" not in seeded_names or "aten::add.Tensor" in seeded_names:
        fail("--tag nondeterministic_seeded: %s" % seeded_names[:10])
    print("PASS: %d operators recorded, all of builtin:1.13.1, none failing at CPU; %d seeded" %
          (len(names), len(seeded_names)))


if __name__ == "__main__":
    main()
