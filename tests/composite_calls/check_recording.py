#!/usr/bin/python3
"""Checks the recorded composite calls of 2.14.1 (lib/builtin/data/torch-2.14.1/
composite_calls.json.gz) against the real calls of tests/composite_calls/ (six real
PrivateUse1 backends on live 2.14.1, record_backends.py), with a predictor written here
from the recording alone, independent of dispatchctl's C++ outcome model:

  an operator works on the backend if the backend has a kernel for it; else the kernel
  its PrivateUse1 row takes (CompositeExplicitAutogradNonFunctional, then
  CompositeExplicitAutograd, then CompositeImplicitAutograd, as in 2.14.1's dump) decides:
  a torchgen-generated structured kernel calls its structured_delegate (.out), after its
  meta function (which may call operators: it works is not known); a recorded stub raises;
  a recorded kernel raises at its first `always` callee that raises, when no callee before
  it may raise, and works when it calls only `always` callees that work; with no kernel at
  all, PyTorch's "Could not run" for it.

A forward call predicted definitely must have the real verdict (returns or raises): no
definite verdict may be wrong. Reported besides: how many raises were predicted with the
real error (the operator the real "Could not run 'aten::X'" names, or the stub's message),
how many with another one (a callee only some inputs reach, never seen on the samples,
can raise first), and how many of the real raises on composite rows were predicted.
    python3 tests/composite_calls/check_recording.py ROOT"""

import gzip
import json
import pathlib
import re
import sys

root = pathlib.Path(sys.argv[1])
data = root / "lib/builtin/data/torch-2.14.1"
recording = json.loads(gzip.decompress((data / "composite_calls.json.gz").read_bytes()))
kernels = {(k["op"], k["key"]): k for k in recording["kernels"]}

# Each operator's keys in 2.14.1's dump.
keys_of = {}
name = None
for line in gzip.decompress((data / "registry_state.txt.gz").read_bytes()).decode().splitlines():
    if line.startswith("name: "):
        name = line[6:]
        keys_of[name] = set()
    elif name and re.match(r"^[A-Za-z0-9]+(\[alias\])?: ", line):
        keys_of[name].add(line.split(":")[0].replace("[alias]", ""))

# torchgen's structured kernels: functional/in-place -> the out= overload they call.
delegate = {}
yaml_text = gzip.decompress((root / "tests/data/torch-2.14.1/torchgen/native_functions.yaml.gz").read_bytes()).decode()
func = None
for line in yaml_text.splitlines():
    m = re.match(r"^- func: ([^(]+)\(", line)
    if m:
        func = "aten::" + m.group(1).strip()
        continue
    m = re.match(r"^  structured_delegate: (\S+)", line)
    if m and func:
        delegate[func] = "aten::" + m.group(1)

# The Python backend has no pinned-memory allocator (its hooks): to(..., non_blocking=True)
# raises whatever kernels it has. A property of the backend object, not of the registry.
NOT_A_KERNEL = "You should register `PrivateUse1HooksInterface`"
ROW_ORDER = ("CompositeExplicitAutogradNonFunctional", "CompositeExplicitAutograd", "CompositeImplicitAutograd")
OK, UNKNOWN = "ok", None


def outcome(op, have, seen=()):
    """"ok", ("raise", operator or message), or None (unknown)."""
    if op in have:
        return OK
    if op in seen:
        return UNKNOWN
    row_key = next((k for k in ROW_ORDER if k in keys_of.get(op, ())), None)
    if row_key is None:
        return ("missing", op) if op in keys_of else UNKNOWN
    if row_key == "CompositeExplicitAutogradNonFunctional" and op in delegate:
        # Its meta function runs first and may call operators on the backend (glu's
        # narrows the input: as_strided): a delegate that works does not make it work.
        result = outcome(delegate[op], have, seen + (op,))
        return UNKNOWN if result == OK else result
    kernel = kernels.get((op, row_key))
    if kernel is None:
        return UNKNOWN
    if kernel.get("raises", {}).get("when") == "always":
        return ("stub", kernel["raises"]["message"])
    maybe_raises = False
    for call in kernel["calls"]:
        result = outcome(call["op"], have, seen + (op,))
        if result == OK:
            continue
        if call["when"] == "always" and result is not UNKNOWN and not maybe_raises:
            return result
        maybe_raises = True
    # A call seen on some inputs only: other inputs take paths no sample took (matrix_rank's
    # hermitian one calls sum.IntList_out), which may reach a missing kernel.
    some = any(call["when"] != "always" for call in kernel["calls"])
    return UNKNOWN if maybe_raises or some or "raises" in kernel else OK


def real_outcome(text):
    if text == "ok":
        return OK
    m = re.match(r"Could not run '([^']+)' with arguments from the 'PrivateUse1' backend", text)
    return ("missing", m.group(1)) if m else ("other", text)


wrong, other_error, definite, total, composite_raises, composite_raises_predicted = [], [], 0, 0, 0, 0
for calls_path in sorted((root / "tests/composite_calls").glob("calls_*.json.gz")):
    recorded = json.loads(gzip.decompress(calls_path.read_bytes()))
    manifest = json.loads(gzip.decompress((calls_path.parent / (recorded["backend"] + ".gz")).read_bytes()))
    have = {op["name"] for op in manifest["operators"]}
    for call in recorded["calls"]:
        if call["forward"].startswith(NOT_A_KERNEL):
            continue
        total += 1
        predicted = outcome(call["op"], have)
        real = real_outcome(call["forward"])
        on_composite = call["op"] not in have and any(k in keys_of.get(call["op"], ()) for k in ROW_ORDER)
        if on_composite and real != OK:
            composite_raises += 1
        if predicted is UNKNOWN:
            continue
        definite += 1
        right = (predicted == real or (predicted[0] == "stub" and real[0] == "other"
                                        and real[1] == predicted[1]))
        if not right and (predicted == OK) == (real == OK):
            other_error.append("%s %s: predicted %s, real %s" % (calls_path.name, call["op"], predicted,
                                                                  call["forward"][:100]))
        elif not right:
            wrong.append("%s %s: predicted %s, real %s" % (calls_path.name, call["op"], predicted, call["forward"][:120]))
        elif on_composite and real != OK:
            composite_raises_predicted += 1

print("%d calls, %d predicted definitely, %d wrong verdicts; %d raises predicted with "
      "another error than the real one; raises on composite rows: %d of %d predicted with the real error"
      % (total, definite, len(wrong), len(other_error), composite_raises_predicted, composite_raises))
for w in other_error:
    print("OTHER ERROR", w)
for w in wrong[:40]:
    print("WRONG", w)
sys.exit(1 if wrong else 0)
