#!/usr/bin/python3
"""Ground truth for composite call graphs (issue 30): real PrivateUse1 backends built from
Python on live PyTorch 2.14.1, each with a seeded random subset of kernels, and what real
calls of about 300 operators do on each (forward, and backward where differentiable).

    cp -r tools/dispatchctl_exporter tests/composite_calls/record_backends.py /work/chroots/sid/tmp/gt/
    chroot /work/chroots/sid python3 /tmp/gt/record_backends.py /tmp/gt/out [--calls 390] [--only 0,1,...]

writes, per backend N: backend_N.json (a dispatchctl manifest layered over builtin:2.14.1:
the PrivateUse1 kernels the backend has) and calls_N.json (the calls). A backend is
tools/dispatchctl_exporter/cpu_backed_device.py: every kernel registered computes on
CPU storage. Every backend has the allocation and copy kernels (ALWAYS) and a random share
(SHARES: one backend per share) of the operators that have a CPU kernel; backends from
VIEWS_FROM on also always have the view kernels (VIEWS). A call is one aten call: the
first OpInfo sample of an OpInfo of torch.testing._internal.common_methods_invocations.op_db
(shuffled, seeded) is run once under a TorchDispatchMode with the autograd keys excluded,
which sees the aten overloads the Python call reaches (a composite one as itself) with a
copy of their arguments; the overload named like the OpInfo (else the first one with a
backend tensor) is then called for real, alone, on fresh backend tensors: "op" is that
overload, "sample" its arguments (dtype[shape]; cpu: for a CPU tensor), "forward" is "ok"
or the first line of PyTorch's error, "backward" (when the OpInfo supports autograd, the
overload mutates nothing and the forward returned a tensor that requires grad) is the
outcome of `out.sum().backward()` (for a 0-dim out: out.backward()) with leaves that
require grad; "output" (where the backward was tried and the forward returned a tensor) is
that out as dtype[shape] ("float32[]" for 0-dim). An OpInfo that kills the process is left out (crashed_positions).
Nothing here comes from
dispatchctl. Each backend runs in its own process (kernels cannot be unregistered)."""

import argparse
import json
import os
import random
import subprocess
import sys
import warnings

# One backend per share of the CPU operators it has kernels for (backend N: seed 3000 + N).
SHARES = (0.3, 0.5, 0.7, 0.85, 0.15, 0.6)
# Backends from this one on have the view kernels whatever their share, as a real backend
# does early: their raises come from the other missing kernels (fill_, zero_, mul.out …),
# not mostly from as_strided and view.
VIEWS_FROM = 4
VIEWS = ["aten::as_strided", "aten::view"]
CALLS_PER_BACKEND = 390
ALWAYS = ["aten::empty.memory_format", "aten::empty_strided", "aten::_copy_from", "aten::_copy_from_and_resize"]
KERNEL_DEBUG = "registered at tests/composite_calls/record_backends.py (Python kernel over CPU storage)"


def first_line(e):
    text = str(e).strip()
    return text.split("\n", 1)[0] if text else type(e).__name__


def describe(torch, value):
    """A short text of a sample's arguments: tensors as dtype[shape] (a CPU one: cpu:…)."""
    if isinstance(value, tuple) and len(value) == 2 and value[0] == "cpu":
        return "cpu:" + describe(torch, value[1])
    if isinstance(value, torch.Tensor):
        return "%s%s" % (str(value.dtype).replace("torch.", ""), list(value.shape))
    if isinstance(value, (list, tuple)):
        return "(" + ", ".join(describe(torch, v) for v in value) + ")"
    if isinstance(value, dict):
        return "{" + ", ".join("%s=%s" % (k, describe(torch, v)) for k, v in value.items()) + "}"
    return repr(value)[:40]


def snapshot(torch, backend, value, tensors):
    """value with each tensor replaced by ("backend" or "cpu", a CPU copy of its data)."""
    if isinstance(value, torch.Tensor):
        tensors.append(value)
        if backend.is_backend(value):
            return ("backend", backend.to_cpu(value).clone())
        return ("cpu", value.detach().clone())
    if isinstance(value, (list, tuple)):
        return type(value)(snapshot(torch, backend, v, tensors) for v in value)
    if isinstance(value, dict):
        return {k: snapshot(torch, backend, v, tensors) for k, v in value.items()}
    return value


def tree_map_snapshots(value, f):
    if isinstance(value, tuple) and len(value) == 2 and value[0] in ("backend", "cpu") and hasattr(value[1], "dtype"):
        return f(value)
    if isinstance(value, (list, tuple)):
        return type(value)(tree_map_snapshots(v, f) for v in value)
    if isinstance(value, dict):
        return {k: tree_map_snapshots(v, f) for k, v in value.items()}
    return value


def describe_snapshot(torch, value):
    return describe(torch, tree_map_snapshots(value, lambda v: v[1] if v[0] == "backend" else ("cpu", v[1])))


def record_backend(index, out_dir, start, calls_wanted):
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    warnings.filterwarnings("ignore")
    import torch
    from torch.utils._python_dispatch import TorchDispatchMode
    from dispatchctl_exporter.composite_recorder import below_autograd
    from dispatchctl_exporter.composite_samples import import_op_db, opinfo_samples, overload_name, tree_map_tensors
    from dispatchctl_exporter.composite_worker import resolve_overload
    from dispatchctl_exporter.cpu_backed_device import CpuBackedPrivateUse1

    rng = random.Random(3000 + index)
    backend = CpuBackedPrivateUse1(torch)
    cpu_ops = sorted(n for n in torch._C._dispatch_get_registrations_for_dispatch_key("CPU")
                     if n.startswith("aten::") and n not in ALWAYS)
    share = SHARES[index]
    chosen = sorted(rng.sample(cpu_ops, int(len(cpu_ops) * share)))
    if index >= VIEWS_FROM:
        chosen = sorted(set(chosen) | set(VIEWS))
    registered = []
    for name in chosen:
        try:
            backend.register(resolve_overload(torch, name))
            registered.append(name)
        except Exception:  # noqa: BLE001 (an overload Python cannot name)
            pass
    backend.register_copies()
    registered += ["aten::_copy_from", "aten::_copy_from_and_resize"]
    for name in ["aten::empty.memory_format", "aten::empty_strided"]:
        backend.register(resolve_overload(torch, name))
        registered.append(name)

    captured = []

    class Capture(TorchDispatchMode):
        """Each call: (overload, snapshot of args, of kwargs, on the backend?, OpOverload)."""
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            kwargs = kwargs or {}
            tensors = []
            snap = lambda v: snapshot(torch, backend, v, tensors)  # noqa: E731
            entry = (overload_name(func), snap(args), snap(kwargs))
            device = kwargs.get("device")
            on = any(t.device.type == backend.device.type for t in tensors) or (
                device is not None and torch.device(device).type == backend.device.type)
            captured.append(entry + (on, func))
            return func(*args, **kwargs)

    op_db = import_op_db()
    rng.shuffle(op_db)
    device = backend.device
    path = os.path.join(out_dir, "progress_%d.jsonl" % index)
    made = sum(1 for line in open(path) if line.startswith('{"call"')) if os.path.exists(path) else 0
    progress = open(path, "a")
    for position, opinfo in enumerate(op_db):
        if position < start:
            continue
        if made >= calls_wanted:
            break
        progress.write(json.dumps({"position": position}) + "\n")
        progress.flush()
        # Samples made on the CPU, moved with a backend-free copy: the move itself
        # must not depend on the backend's kernels.
        samples = opinfo_samples(torch, opinfo, lambda t: t, 1)
        if not samples:
            continue
        f, args, kwargs = samples[0]

        def to_backend(t, requires_grad=False):
            """A backend tensor holding a copy of the CPU tensor t, made without the
            backend's kernels (the move must not depend on them)."""
            out = torch._C._acc.create_empty_tensor([0], t.dtype)
            cpu = t.detach().clone()
            backend.pair(out.untyped_storage(), cpu.untyped_storage())
            backend.set_like(out, out.untyped_storage(), cpu)
            if requires_grad and (t.is_floating_point() or t.is_complex()):
                out.requires_grad_(True)
            return out

        # The aten calls the sample makes first (autograd excluded: a composite
        # operator is seen as itself), each with a snapshot of its arguments.
        captured.clear()
        try:
            with below_autograd(torch), Capture():
                f(*tree_map_tensors(args, to_backend), **tree_map_tensors(kwargs, to_backend))
        except Exception:  # noqa: BLE001 (the calls before the error were captured)
            pass
        wanted = "aten::" + (getattr(opinfo, "aten_name", None) or opinfo.name)
        on_backend = [c for c in captured if c[3]]
        chosen = next((c for c in on_backend if c[0].split(".")[0] == wanted), on_backend[0] if on_backend else None)
        if chosen is None:
            continue
        name, snap_args, snap_kwargs, _, func = chosen

        def rebuilt(requires_grad):
            def back(value):
                kind, t = value
                return to_backend(t, requires_grad) if kind == "backend" else t.clone()
            return tree_map_snapshots(snap_args, back), tree_map_snapshots(snap_kwargs, back)

        call = {"opinfo": opinfo.name + ("." + opinfo.variant_test_name if opinfo.variant_test_name else ""),
                "op": name, "sample": describe_snapshot(torch, (snap_args, snap_kwargs))}
        try:
            a, k = rebuilt(False)
            func(*a, **k)
            call["forward"] = "ok"
        except Exception as e:  # noqa: BLE001
            call["forward"] = first_line(e)
        mutates = any(x.alias_info is not None and x.alias_info.is_write for x in func._schema.arguments)
        if call["forward"] == "ok" and getattr(opinfo, "supports_autograd", False) and not mutates:
            try:
                a, k = rebuilt(True)
                out = func(*a, **k)
                out = out[0] if isinstance(out, (tuple, list)) else out
                if isinstance(out, torch.Tensor):
                    # Which backward ran (out.backward() on a 0-dim out, else out.sum().backward())
                    # and whether Python refuses a complex out before the seed.
                    call["output"] = "%s[%s]" % (str(out.dtype).replace("torch.", ""),
                                                 ", ".join(str(n) for n in out.shape))
                if isinstance(out, torch.Tensor) and out.requires_grad:
                    (out if out.dim() == 0 else out.sum()).backward()
                    call["backward"] = "ok"
            except Exception as e:  # noqa: BLE001
                call["backward"] = first_line(e)
        progress.write(json.dumps({"call": call}) + "\n")
        made += 1
        progress.flush()
        backend.forget()

    progress.write(json.dumps({"finished": True}) + "\n")
    progress.close()
    manifest = {"dispatchctl_manifest": 1, "torch_version": "2.14.1", "operators": [
        {"name": name, "kernels": [{"key": "PrivateUse1", "kernel": KERNEL_DEBUG}]} for name in sorted(set(registered))]}
    with open(os.path.join(out_dir, "backend_%d.json" % index), "w") as f:
        json.dump(manifest, f, indent=0)
    with open(os.path.join(out_dir, "about_%d.json" % index), "w") as f:
        json.dump({"torch_version": torch.__version__, "backend": "backend_%d.json" % index, "seed": 3000 + index,
                   "kernel_share": share}, f)


def finish_backend(index, out_dir, calls_wanted):
    """Runs backend `index` until it has its calls, restarting after an OpInfo that kills
    the process (a crash inside PyTorch: that OpInfo is left out, "crashed" counted)."""
    path = os.path.join(out_dir, "progress_%d.jsonl" % index)
    if os.path.exists(path):
        os.unlink(path)
    start, crashed = 0, []
    for _ in range(20):
        subprocess.run([sys.executable, os.path.abspath(__file__), out_dir, "--worker", str(index), str(start),
                        str(calls_wanted)],
                       check=False, timeout=1800, stderr=subprocess.DEVNULL)
        lines = [json.loads(line) for line in open(path)]
        calls = [line["call"] for line in lines if "call" in line]
        if any("finished" in line for line in lines) or len(calls) >= calls_wanted:
            break
        last = max(line["position"] for line in lines if "position" in line)
        crashed.append(last)
        start = last + 1
    about = json.load(open(os.path.join(out_dir, "about_%d.json" % index)))
    about.update(crashed_positions=crashed, calls=calls[:calls_wanted])
    with open(os.path.join(out_dir, "calls_%d.json" % index), "w") as f:
        f.write(json.dumps({k: v for k, v in about.items() if k != "calls"})[:-1] + ', "calls": [\n')
        f.write(",\n".join(json.dumps(c) for c in about["calls"]) + "\n]}\n")
    os.unlink(path)
    os.unlink(os.path.join(out_dir, "about_%d.json" % index))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out_dir")
    parser.add_argument("--calls", type=int, default=CALLS_PER_BACKEND, help="OpInfos called per backend")
    parser.add_argument("--only", help="comma-separated backend numbers (default: all of SHARES)")
    parser.add_argument("--worker", nargs=3, type=int, metavar=("INDEX", "START", "CALLS"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        record_backend(args.worker[0], args.out_dir, args.worker[1], args.worker[2])
        sys.stdout.flush()
        os._exit(0)
    os.makedirs(args.out_dir, exist_ok=True)
    for index in ([int(i) for i in args.only.split(",")] if args.only else range(len(SHARES))):
        finish_backend(index, args.out_dir, args.calls)


main()
