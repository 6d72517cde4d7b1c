"""Records what composite kernels and backward nodes call immediately (docs/composite-calls.md).

A kernel is run directly (OpOverload._op_dk at its composite key) with the autograd keys
excluded, under a TorchDispatchMode: every operator the kernel calls through the
dispatcher reaches the Python key as itself (a composite callee is not decomposed first,
its own kernel runs below the mode), and the handler runs it with the mode popped, so
only the kernel's immediate callees are seen. A backward node is called the same way.
Only calls that dispatch to the backend under test count (`Backend.counts`)."""

import contextlib
import signal

from dispatchctl_exporter.composite_samples import overload_name, tree_map_tensors


class Backend:
    """The device the samples live on. On a real backend (PrivateUse1) a call counts when a
    tensor argument (or the device argument) is on it. When the backend is the CPU
    (releases without a Python backend), a call whose tensors are all 0-dim and that makes
    no tensor of more dimensions is taken for a CPU scalar computed inside the kernel."""

    def __init__(self, torch, device):
        self.torch = torch
        self.device = torch.device(device)
        self.is_cpu = self.device.type == "cpu"

    def tensors(self, value, out):
        if isinstance(value, self.torch.Tensor):
            out.append(value)
        elif isinstance(value, (list, tuple)):
            for v in value:
                self.tensors(v, out)
        elif isinstance(value, dict):
            for v in value.values():
                self.tensors(v, out)
        return out

    def on_device(self, tensors, kwargs):
        device = kwargs.get("device")
        if device is not None and self.torch.device(device).type == self.device.type:
            return True
        return any(t.device.type == self.device.type for t in tensors)

    def counts(self, args, kwargs, result):
        inputs = self.tensors((args, kwargs), [])
        if not self.on_device(inputs, kwargs):
            return False
        if not self.is_cpu:
            return True
        made = self.tensors(result, []) if result is not None else []
        return any(t.dim() > 0 for t in inputs) or any(t.dim() > 0 for t in made)


def call_log_mode(torch, backend):
    from torch.utils._python_dispatch import TorchDispatchMode

    class CallLog(TorchDispatchMode):
        def __init__(self):
            super().__init__()
            self.calls = []
            self.callee_raised = False

        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            kwargs = kwargs or {}
            try:
                result = func(*args, **kwargs)
            except BaseException:
                if backend.counts(args, kwargs, None):
                    self.calls.append(overload_name(func))
                self.callee_raised = True
                raise
            if backend.counts(args, kwargs, result):
                self.calls.append(overload_name(func))
            return result

    return CallLog


class Timeout(Exception):
    pass


@contextlib.contextmanager
def time_limit(seconds):
    def expired(signum, frame):
        raise Timeout("took longer than %s s" % seconds)
    previous = signal.signal(signal.SIGALRM, expired)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


@contextlib.contextmanager
def below_autograd(torch):
    guard = torch._C._AutoDispatchBelowAutograd()
    try:
        yield
    finally:
        del guard


def first_line(error):
    text = str(error).strip()
    return text.split("\n", 1)[0] if text else type(error).__name__


class Tally:
    """What one kernel (or backward) did over its samples, mergeable across workers."""

    @staticmethod
    def new():
        return {"n": 0, "calls": {}, "first": {}, "before": {}, "stub": {}, "failed": 0, "opinfo": 0}

    @staticmethod
    def add(tally, calls, raised, callee_raised, opinfo):
        if opinfo:
            tally["opinfo"] += 1
        if raised is not None and not callee_raised:
            if calls:
                tally["failed"] += 1  # the sample's own input was refused after some calls
            else:
                message = first_line(raised)
                tally["stub"][message] = tally["stub"].get(message, 0) + 1
            return
        tally["n"] += 1
        ordered = list(dict.fromkeys(calls))
        for position, callee in enumerate(ordered):
            tally["calls"][callee] = tally["calls"].get(callee, 0) + 1
            tally["first"][callee] = min(tally["first"].get(callee, position), position)
            for later in ordered[position + 1:]:  # "a>b": samples calling a first, then b
                pair = callee + ">" + later
                tally["before"][pair] = tally["before"].get(pair, 0) + 1


class Recorder:
    """Runs kernels and backward nodes of one worker; results go into `kernels` and
    `backward` ({name: Tally})."""

    def __init__(self, torch, backend, composites, differentiable, seconds=20):
        self.torch = torch
        self.backend = backend
        self.composites = composites  # {operator: [composite key, ...]}
        self.differentiable = differentiable  # operators with an autograd kernel of their own
        self.seconds = seconds
        self.CallLog = call_log_mode(torch, backend)
        self.kernels, self.backward = {}, {}
        self.source = "schema"

    def logged(self, run):
        log = self.CallLog()
        raised = None
        try:
            with time_limit(self.seconds), below_autograd(self.torch), log:
                run()
        except Timeout:
            raise
        except Exception as e:  # noqa: BLE001 (the sample's outcome)
            raised = e
        return log.calls, raised, log.callee_raised

    def elsewhere(self, args, kwargs):
        """True when the sample names a device other than the backend's."""
        torch = self.torch
        for value in list(args) + list(kwargs.values()):
            if isinstance(value, (torch.device, str)) and not isinstance(value, bool):
                try:
                    if torch.device(value).type != self.backend.device.type:
                        return True
                except (RuntimeError, TypeError, ValueError):
                    pass
        return False

    def record(self, func, args, kwargs):
        """Runs every composite kernel of `func` (an OpOverload) and its backward on one sample."""
        name = overload_name(func)
        if self.elsewhere(args, kwargs) or not self.backend.counts(args, kwargs, None):
            return  # e.g. ones_like(x, device="cpu"), zeros([2]): it runs on another backend
        key_of = self.torch._C.DispatchKey
        for key in self.composites.get(name, ()):
            def run(key=key):
                func._op_dk(getattr(key_of, key), *args, **kwargs)
            calls, raised, callee_raised = self.logged(run)
            Tally.add(self.kernels.setdefault(name + "|" + key, Tally.new()), calls, raised, callee_raised,
                      self.source == "opinfo")
        if name in self.differentiable and not any(
                a.alias_info is not None and a.alias_info.is_write for a in func._schema.arguments):
            self.record_backward(name, func, args, kwargs)

    def record_backward(self, name, func, args, kwargs):
        torch = self.torch

        def leaf(t):
            if t.is_floating_point() or t.is_complex():
                return t.detach().requires_grad_(True)
            return t
        try:
            with time_limit(self.seconds):
                outputs = func(*tree_map_tensors(args, leaf), **tree_map_tensors(kwargs, leaf))
        except Exception:  # noqa: BLE001 (no forward on this sample: no backward either)
            return
        outputs = self.backend.tensors(outputs, [])
        nodes = [o for o in outputs if o.grad_fn is not None]
        if not nodes:
            return
        node = nodes[0].grad_fn
        grads = [None] * (max(o.output_nr for o in outputs if o.grad_fn is node) + 1)
        for o in outputs:
            if o.grad_fn is node:
                grads[o.output_nr] = torch.ones_like(o)

        def run():
            with torch.no_grad():
                node(*grads)
        calls, raised, callee_raised = self.logged(run)
        if raised is not None and "must" in str(raised) and not calls:
            return  # the call convention of the node, not the backward's outcome
        Tally.add(self.backward.setdefault(name, Tally.new()), calls, raised, callee_raised,
                  self.source == "opinfo")

    def backward_seed(self, make_output):
        """What `.backward()` on a scalar output calls to make the gradient seed."""
        torch = self.torch
        import torch.autograd as autograd
        out = make_output()
        log = self.CallLog()
        with log:
            autograd._make_grads((out,), (None,), is_grads_batched=False)
        return log.calls


def merge_tallies(into, other):
    for name, tally in other.items():
        mine = into.setdefault(name, Tally.new())
        mine["n"] += tally["n"]
        mine["failed"] += tally["failed"]
        mine["opinfo"] += tally["opinfo"]
        for callee, count in tally["calls"].items():
            mine["calls"][callee] = mine["calls"].get(callee, 0) + count
        for callee, position in tally["first"].items():
            mine["first"][callee] = min(mine["first"].get(callee, position), position)
        for pair, count in tally.get("before", {}).items():
            mine["before"][pair] = mine["before"].get(pair, 0) + count
        for message, count in tally["stub"].items():
            mine["stub"][message] = mine["stub"].get(message, 0) + count


# A kernel that raises before calling anything is taken for a stub (it raises whatever the
# input) only when its message says so and names nothing about the input.
STUB_WORDS = ("not implemented", "not supported", "overrideable", "is only available", "only supports",
              "device type")
INPUT_WORDS = ("dtype", "range", "expected", "quantized", "size", "shape", "dimension", "must be")


def call_order(tally):
    """Callees in the order they are called: a before b when more samples call a first
    (samples call them in one order unless the input decides), else by first position."""
    import functools
    before = tally.get("before", {})

    def compare(a, b):
        ab, ba = before.get(a + ">" + b, 0), before.get(b + ">" + a, 0)
        if ab != ba:
            return -1 if ab > ba else 1
        return (tally["first"][a], a) < (tally["first"][b], b) and -1 or 1
    return sorted(tally["calls"], key=functools.cmp_to_key(compare))


def entry_of(tally):
    """The file's entry body for one tally ({samples, calls, raises}), or None (nothing known).
    A sample a kernel refused is not counted (its input was wrong for it), unless the
    kernel is a stub (STUB_WORDS)."""
    n, stub_runs = tally["n"], sum(tally["stub"].values())
    body = {}
    if stub_runs:
        message, count = max(tally["stub"].items(), key=lambda item: item[1])
        stub_like = any(w in message.lower() for w in STUB_WORDS) and \
            not any(w in message.lower() for w in INPUT_WORDS)
        if stub_like and (n > 0 or len(tally["stub"]) == 1):
            body["raises"] = {"message": message, "when": "always" if n == 0 and len(tally["stub"]) == 1
                              else "some_inputs"}
    if n == 0 and "raises" not in body:
        return None
    order = call_order(tally)
    body["samples"] = n + (stub_runs if "raises" in body else 0)
    body["calls"] = [{"op": c, "when": "always" if tally["calls"][c] == body["samples"] else "some_inputs"}
                     for c in order]
    return body
