#!/usr/bin/env python3
"""Record what the hand-written composite kernels of the live PyTorch call (issue 30).

Runs in the Python of the release to record and writes the composite_calls file of
docs/composite-calls.md (gzipped when the name ends in .gz):

    chroot /work/chroots/sid python3 /tmp/record-composite-calls.py --release 2.14.1 \\
        -o /tmp/composite_calls.json.gz

For every operator whose table holds a hand-written composite kernel, that kernel is run
on sample inputs (PyTorch's OpInfo samples where they reach the operator, inputs built from
its schema otherwise) under a TorchDispatchMode with the autograd keys excluded, so its
immediate callees are seen; each differentiable operator's backward node is called the
same way. On a torch with a Python PrivateUse1 backend (2.9 and later) the samples live on
a CPU-backed PrivateUse1 backend holding a kernel for every operator with a CPU kernel;
on older ones they live on the CPU (a call on 0-dim tensors only is taken for a CPU
scalar computed inside). Work runs in worker processes; a unit that hangs or crashes
is left out (unknown). Nothing here comes from dispatchctl."""

import argparse
import gzip
import importlib.util
import json
import os
import sys

if "--worker" in sys.argv:  # a worker process started by composite_driver
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from dispatchctl_exporter.composite_worker import composite_worker_main as worker_main
    worker_main()
    sys.stdout.flush()
    os._exit(0)

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from dispatchctl_exporter.composite_driver import record_composite_calls  # noqa: E402
from dispatchctl_exporter.dump_parser import ParseError, parse_state  # noqa: E402
from dispatchctl_exporter.live_registry import all_op_names, normalized_version  # noqa: E402
from dispatchctl_exporter.messages import Problems  # noqa: E402


def yaml_folder():
    spec = importlib.util.find_spec("torchgen")
    if spec is None or not spec.origin:
        return None
    folder = os.path.join(os.path.dirname(spec.origin), "packaged", "ATen", "native")
    return folder if os.path.isfile(os.path.join(folder, "native_functions.yaml")) else None


def backward_into(path, recorded, summary):
    """The recording at `path` with its backward sections taken from `recorded` (this run)."""
    with open(path, "rb") as f:
        data = f.read()
    kept = json.loads(gzip.decompress(data) if path.endswith(".gz") else data)
    if kept.get("release") != recorded["release"]:
        sys.exit("record-composite-calls: %s records release %s, this torch is %s; pass --release" % (
            path, kept.get("release"), recorded["release"]))
    for field in ("backward", "backward_seed", "backward_gradients"):
        kept[field] = recorded[field]
    kept["recorded"]["how"] += "; backward sections re-recorded in %s s (--backward-into)" % summary["seconds"]
    return kept


def main():
    parser = argparse.ArgumentParser(prog="record-composite-calls", description=__doc__.split("\n\n")[0])
    parser.add_argument("-o", "--output", required=True, metavar="FILE")
    parser.add_argument("--release", help="the release named in the file (default: this torch's)")
    parser.add_argument("--how", default="", help="appended to recorded.how")
    parser.add_argument("--device", choices=["privateuse1", "cpu"], default="privateuse1",
                        help="where the samples live (privateuse1 falls back to cpu on torch < 2.9)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--limit", type=int, help="record only this many units per pass (a quick check)")
    parser.add_argument("--kinds", action="store_true",
                        help="also record the kernels on sparse, sparse CSR, quantized, mkldnn, nested, meta (and, "
                             "where the main recording is not on the CPU, dense CPU) tensors")
    parser.add_argument("--kinds-only", action="store_true",
                        help="record the kinds alone (the file's dense sections are then empty: merge its kinds "
                             "into a recording whose dense sections are kept)")
    parser.add_argument("--backward-into", metavar="FILE",
                        help="write FILE (a recording of this release) with only its backward sections replaced by "
                             "this run's (backward, backward_seed, backward_gradients); its kernels and kinds are kept")
    parser.add_argument("--no-schema-backward", dest="schema_backward", action="store_false",
                        help="no second pass over differentiable operators no OpInfo reached")
    args = parser.parse_args()

    import torch
    from dispatchctl_exporter.cpu_backed_device import privateuse1_backend_available
    problems = Problems()
    operators = []
    for name in all_op_names(torch._C, problems):
        text = torch._C._dispatch_dump(name)
        try:
            operators.append(parse_state(name, text))
        except ParseError:
            pass
    device = "privateuse1" if args.device == "privateuse1" and privateuse1_backend_available(torch) else "cpu"
    how = ("recorded in torch %s on a CPU-backed Python PrivateUse1 backend (tools/record-composite-calls.py)"
           % torch.__version__ if device == "privateuse1" else
           "recorded in torch %s on CPU tensors (no Python PrivateUse1 backend in this release; calls on 0-dim "
           "tensors only are taken for CPU scalars) (tools/record-composite-calls.py)" % torch.__version__)
    if args.how:
        how += "; " + args.how

    def progress(done, total):
        if sys.stderr.isatty():
            sys.stderr.write("\r\033[Krecord-composite-calls: %d/%d units" % (done, total))
            sys.stderr.flush()

    result, summary = record_composite_calls(
        os.path.abspath(__file__), operators, yaml_folder(), args.release or normalized_version(torch.__version__),
        torch.__version__, how, device, jobs=args.jobs, progress=progress, schema_backward=args.schema_backward,
        limit=args.limit, kinds=args.kinds, kinds_only=args.kinds_only)
    if args.backward_into:
        result = backward_into(args.backward_into, result, summary)
    text = json.dumps(result, indent=None, separators=(",", ":"), sort_keys=False)
    text = text.replace('{"op"', '\n{"op"')
    data = (text + "\n").encode()
    tmp = args.output + ".tmp"
    with open(tmp, "wb") as raw:
        if args.output.endswith(".gz"):
            with gzip.GzipFile(fileobj=raw, mode="wb", compresslevel=9, mtime=0) as f:
                f.write(data)
        else:
            raw.write(data)
    os.replace(tmp, args.output)
    sys.stderr.write("\n" + json.dumps(summary, indent=1) + "\n")
    sys.stdout.flush()
    os._exit(0)


if __name__ == "__main__":
    main()
