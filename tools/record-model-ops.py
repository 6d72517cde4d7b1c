#!/usr/bin/env python3
"""Record an operator list for `dispatchctl --ops-from FILE`, with your own torch.

    python3 tools/record-model-ops.py -o model_ops.txt my_training_step.py [ARGS...]
    python3 tools/record-model-ops.py --tag core -o core_ops.txt

With a script: runs it (as `python3 SCRIPT ARGS` would, __name__ == "__main__") under a
TorchDispatchMode and writes every operator overload that reached the dispatcher below
autograd: the calls a backend's kernels receive, CompositeImplicitAutograd operators already
decomposed (aten::linear is recorded as the aten::t / aten::addmm it runs), backward included
when the script calls backward(). Run the script on CPU tensors: the list is the same operators
a PrivateUse1 backend would be asked for, and no device is needed.

With --tag TAG: the operators the running torch tags TAG (torch.Tag, from native_functions.yaml's
`tags:`), e.g. `core`: PyTorch's core ATen opset of that release.

The list is one exact overload name a line, sorted, as PyTorch's dumps name them
(aten::add.Tensor; aten::addmm for the unnamed overload), after a `#` header saying what
recorded it. Only torch is used: nothing is installed or fetched."""

import argparse
import os
import runpy
import sys
import tempfile


def overload_name(op):
    """aten::add.Tensor, or aten::addmm for the unnamed (default) overload."""
    schema = op._schema
    return schema.name + ("." + schema.overload_name if schema.overload_name else "")


def record_script(torch, script, script_args):
    from torch.utils._python_dispatch import TorchDispatchMode

    seen = set()

    class Recorder(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            seen.add(overload_name(func))
            return func(*args, **(kwargs or {}))

    sys.argv = [script] + list(script_args)
    sys.path.insert(0, os.path.dirname(os.path.abspath(script)))
    with Recorder():
        runpy.run_path(script, run_name="__main__")
    return seen


def tagged_operators(torch, tag_name):
    if not hasattr(torch, "Tag") or not hasattr(torch.Tag, tag_name):
        have = sorted(t for t in dir(getattr(torch, "Tag", object)) if not t.startswith("_") and t not in ("name", "value"))
        sys.exit("record-model-ops.py: torch %s has no tag '%s' (its tags: %s)"
                 % (torch.__version__, tag_name, ", ".join(have) or "none"))
    tag = getattr(torch.Tag, tag_name)
    found = set()
    C = torch._C
    if hasattr(C, "_dispatch_get_all_op_names"):
        all_names = C._dispatch_get_all_op_names()
    else:  # 1.13: the registrations of every key (the exporter's way, live_registry.all_op_names)
        all_names = C._dispatch_get_registrations_for_dispatch_key("")
    for name in all_names:
        ns, _, rest = name.partition("::")
        base, _, overload = rest.partition(".")
        try:
            packet = getattr(getattr(torch.ops, ns), base)
            op = getattr(packet, overload or "default")
        except (AttributeError, RuntimeError):
            continue  # an operator without Python bindings (no schema): no tags
        if tag in op.tags:
            found.add(name)
    return found


def write_atomically(path, text):
    if path in (None, "-"):
        sys.stdout.write(text)
        return
    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=".record-model-ops-")
    try:
        with os.fdopen(fd, "w") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def main():
    parser = argparse.ArgumentParser(
        description="Record the operator overloads a script runs (or a tag's operators) for dispatchctl --ops-from.")
    parser.add_argument("-o", "--output", help="the list (default: standard output)")
    parser.add_argument("--tag", help="instead of a script: the operators the running torch tags TAG (e.g. core)")
    parser.add_argument("script", nargs="?", help="the Python script to run")
    parser.add_argument("args", nargs=argparse.REMAINDER, help="its arguments")
    options = parser.parse_args()
    if bool(options.tag) == bool(options.script):
        parser.error("give a SCRIPT to run, or --tag TAG (not both)")
    import torch

    if options.tag:
        names = tagged_operators(torch, options.tag)
        header = "# operators tagged '%s' in torch %s (tools/record-model-ops.py --tag %s)\n" % (
            options.tag, torch.__version__, options.tag)
    else:
        if not os.path.isfile(options.script):
            sys.exit("record-model-ops.py: %s: no such script" % options.script)
        names = record_script(torch, options.script, options.args)
        header = "# operators %s ran under torch %s (tools/record-model-ops.py)\n" % (
            os.path.basename(options.script), torch.__version__)
    write_atomically(options.output, header + "".join(n + "\n" for n in sorted(names)))
    print("record-model-ops.py: %d operators" % len(names), file=sys.stderr)


if __name__ == "__main__":
    main()
