"""One worker process of the composite-call recording (composite_driver.py starts it):
sets up the backend under test, then records its units and writes one JSON line per unit
to stdout: {"start": UNIT} before, {"done": UNIT, "kernels": …, "backward": …, "mode_dependent": […]}
after.
A unit is "opinfo:INDEX" (an OpInfo of op_db: its samples, matched to the overloads they
reach) or "schema:OPERATOR" (inputs built from the schema)."""

import json
import sys

from dispatchctl_exporter.composite_recorder import Backend, Recorder, Timeout, below_autograd, time_limit
from dispatchctl_exporter.composite_kinds import kind_recorders, record_kinds_unit
from dispatchctl_exporter.composite_samples import import_op_db, opinfo_samples, overload_name, schema_samples
from dispatchctl_exporter.composite_samples import schema_variants
from dispatchctl_exporter.cpu_backed_device import CpuBackedPrivateUse1, privateuse1_backend_available

MAX_SAMPLES_PER_OPINFO = 6
MAX_SAMPLES_PER_OVERLOAD = 6
# Variants of schema inputs are tried (schema_variants) until a kernel has run on this many.
WANTED_SAMPLES = 3


def resolve_overload(torch, name):
    namespace, _, rest = name.partition("::")
    base, _, overload = rest.partition(".")
    return getattr(getattr(getattr(torch.ops, namespace), base), overload or "default")


def python_backend(torch):
    """The CPU-backed PrivateUse1 backend with every operator that has a CPU kernel."""
    backend = CpuBackedPrivateUse1(torch)
    for name in torch._C._dispatch_get_registrations_for_dispatch_key("CPU"):
        try:
            backend.register(resolve_overload(torch, name))
        except Exception:  # noqa: BLE001 (an operator Python cannot name)
            pass
    backend.register_copies()
    return backend


def capture_mode(torch, captured):
    from torch.utils._python_dispatch import TorchDispatchMode

    class Capture(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            captured.append((func, args, kwargs or {}))
            return func(*args, **(kwargs or {}))

    return Capture


def run_worker(device_choice, plan, units, out=sys.stdout):
    import torch
    import warnings
    warnings.filterwarnings("ignore")
    python_backend_made = None
    if device_choice == "privateuse1" and privateuse1_backend_available(torch):
        python_backend_made = python_backend(torch)
        device = python_backend_made.device
    else:
        device = torch.device("cpu")
    backend = Backend(torch, device)
    recorder = Recorder(torch, backend, plan["composites"], set(plan["differentiable"]), plan.get("seconds", 20),
                        kernel_backend=python_backend_made)
    op_db = import_op_db() if any(u.partition("kinds:")[2].startswith("opinfo:") or u.startswith("opinfo:")
                                  for u in units) else None
    kinds = None  # the kind recorders (composite_kinds.py), made on the first kinds unit

    def to_backend(t):
        return t.to(device) if t.device != device else t

    for unit in units:
        out.write(json.dumps({"start": unit}) + "\n")
        out.flush()
        recorder.kernels, recorder.backward, recorder.harvested = {}, {}, {}
        recorder.mode_dependent = set()
        status = "ok"
        kind_tallies = None
        try:
            kind, _, what = unit.partition(":")
            if kind == "kinds":
                if kinds is None:
                    kinds = kind_recorders(torch, plan, "PrivateUse1" if python_backend_made else "CPU")
                kind_tallies = record_kinds_unit(torch, kinds, what, op_db, record_opinfo, schema_samples,
                                                 resolve_overload)
            elif kind == "opinfo":
                recorder.source = "opinfo"
                record_opinfo(torch, recorder, op_db[int(what)], to_backend)
            else:
                recorder.source = "schema"
                record_schema(torch, recorder, resolve_overload(torch, what))
        except Timeout:
            status = "timeout"
        except Exception as e:  # noqa: BLE001
            status = "error: %s: %s" % (type(e).__name__, str(e).split("\n")[0][:200])
        if python_backend_made is not None:
            python_backend_made.forget()
        done = {"done": unit, "status": status, "kernels": recorder.kernels, "backward": recorder.backward,
                "mode_dependent": sorted(recorder.mode_dependent)}
        if kind_tallies is not None:
            done["kinds"] = kind_tallies
        out.write(json.dumps(done) + "\n")
        out.flush()
    if "seed" in plan.get("also", ()):
        try:
            calls = recorder.backward_seed(lambda: (torch.ones(3, device=device, requires_grad=True) * 2).sum())
            out.write(json.dumps({"seed": calls}) + "\n")
        except Exception as e:  # noqa: BLE001
            out.write(json.dumps({"seed_error": str(e).split("\n")[0]}) + "\n")
        out.flush()


def record_schema(torch, recorder, op):
    """Schema-built inputs; then, while the kernel has run on fewer than WANTED_SAMPLES,
    variants (other shapes, dtypes, optionals given), each tried first without recording:
    only a variant the kernel runs is recorded (a variant it refuses says nothing of the
    kernel, its message must not be taken for a stub's)."""
    for func, args, kwargs in schema_samples(torch, op, recorder.backend.device):
        recorder.record(func, args, kwargs)
    name = overload_name(op)
    keys = recorder.composites.get(name, ())
    if not keys:
        return
    key = getattr(torch._C.DispatchKey, keys[0])

    def ran():
        tally = recorder.kernels.get(name + "|" + keys[0])
        return tally["n"] if tally else 0
    for func, args, kwargs in schema_variants(torch, op, recorder.backend.device):
        if ran() >= WANTED_SAMPLES:
            break
        if not recorder.backend.sample_on_backend(args, kwargs):
            continue
        try:
            with time_limit(recorder.seconds), below_autograd(torch):
                func._op_dk(key, *args, **kwargs)
        except Timeout:
            raise
        except Exception:  # noqa: BLE001 (a variant the kernel refuses: not recorded)
            continue
        recorder.record(func, args, kwargs)


def record_opinfo(torch, recorder, opinfo, to_backend, max_samples=MAX_SAMPLES_PER_OPINFO,
                  max_per_overload=MAX_SAMPLES_PER_OVERLOAD):
    per_overload = {}
    for f, args, kwargs in opinfo_samples(torch, opinfo, to_backend, max_samples, recorder.backend.device):
        captured = []
        try:
            with time_limit(recorder.seconds), below_autograd(torch), capture_mode(torch, captured)():
                f(*args, **kwargs)
        except Timeout:
            raise
        except Exception:  # noqa: BLE001 (the calls made before the error were captured)
            pass
        for func, cargs, ckwargs in captured:
            name = overload_name(func)
            if name not in recorder.composites and name not in recorder.differentiable:
                continue
            if per_overload.get(name, 0) >= max_per_overload:
                continue
            per_overload[name] = per_overload.get(name, 0) + 1
            recorder.record(func, cargs, ckwargs)


def composite_worker_main():
    device_choice = sys.argv[sys.argv.index("--worker") + 1]
    request = json.load(sys.stdin)
    run_worker(device_choice, request["plan"], request["units"])
