"""Records what composite kernels and backward nodes call immediately (docs/composite-calls.md).

A kernel is run directly (OpOverload._op_dk at its composite key) with the autograd keys
excluded, under a TorchDispatchMode: every operator the kernel calls through the
dispatcher reaches the Python key as itself (a composite callee is not decomposed first,
its own kernel runs below the mode), and the handler runs it with the mode popped, so
only the kernel's immediate callees are seen. A backward node is called the same way.
Only calls that dispatch to the backend under test count (`Backend.counts`)."""

import contextlib
import signal

from dispatchctl_exporter.composite_profiler import BACKEND_MARK, ROOT_MARK, is_operator_event, operator_events
from dispatchctl_exporter.composite_profiler import profiler_overload_config, reaches_backend
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

    def sample_on_backend(self, args, kwargs):
        """Whether a sample runs on the backend: a tensor (or the device) is there, and on
        the CPU not only 0-dim tensors (those would be taken for CPU scalars)."""
        inputs = self.tensors((args, kwargs), [])
        if not self.on_device(inputs, kwargs):
            return False
        return not self.is_cpu or not inputs or any(t.dim() > 0 for t in inputs)

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
        def __init__(self, wanted=()):
            super().__init__()
            self.calls = []
            self.callee_raised = False
            self.wanted = wanted  # operators whose calls are kept as samples of their own
            self.inner = []

        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            kwargs = kwargs or {}
            try:
                result = func(*args, **kwargs)
            except BaseException:
                if backend.counts(args, kwargs, None):
                    self.calls.append(overload_name(func))
                    if self.calls[-1] in self.wanted:
                        self.inner.append((func, args, kwargs))
                self.callee_raised = True
                raise
            if backend.counts(args, kwargs, result):
                name = overload_name(func)
                self.calls.append(name)
                if name in self.wanted:
                    self.inner.append((func, args, kwargs))
            return result

    return CallLog


MIN_ALWAYS_SAMPLES = 2
HARVEST_DEPTH = 3
HARVEST_SAMPLES = 3


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

    def __init__(self, torch, backend, composites, differentiable, seconds=20, kernel_backend=None):
        self.torch = torch
        self.backend = backend
        self.kernel_backend = kernel_backend  # the Python backend (cpu_backed_device), or None
        self.composites = composites  # {operator: [composite key, ...]}
        self.differentiable = differentiable  # operators with an autograd kernel of their own
        self.seconds = seconds
        self.CallLog = call_log_mode(torch, backend)
        self.kernels, self.backward = {}, {}
        self.mode_dependent = set()  # backward nodes that call other operators without the mode
        self.source = "schema"
        # Callees whose arguments are samples of their own: composites, and differentiable
        # operators for their backward (upsample_nearest1d, reached through the
        # CompositeImplicitAutograd upsample_nearest1d.vec, which no OpInfo calls directly).
        self.wanted = set(self.composites) | set(self.differentiable)
        self.harvested = {}  # per unit: operator -> samples taken from its callers

    def logged(self, run, inner=None):
        """(calls, raised, callee_raised) of `run` under the call-logging mode."""
        log = self.CallLog(self.wanted if inner is not None else ())
        raised = None
        try:
            with time_limit(self.seconds), below_autograd(self.torch), log:
                run()
        except Timeout:
            raise
        except Exception as e:  # noqa: BLE001 (the sample's outcome)
            raised = e
        if inner is not None:
            inner.extend(log.inner)
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

    def record(self, func, args, kwargs, depth=0):
        """Runs every composite kernel of `func` (an OpOverload) and its backward on one
        sample; then, down to HARVEST_DEPTH, the composite and differentiable callees on the
        arguments the kernel gave them (conv2d's samples reach convolution, _convolution and
        convolution_overrideable), up to HARVEST_SAMPLES per operator and unit."""
        name = overload_name(func)
        if self.elsewhere(args, kwargs) or not self.backend.sample_on_backend(args, kwargs):
            return  # e.g. ones_like(x, device="cpu"), zeros([2]): it runs on another backend
        key_of = self.torch._C.DispatchKey
        inner = []
        for key in self.composites.get(name, ()):
            def run(key=key):
                func._op_dk(getattr(key_of, key), *args, **kwargs)
            calls, raised, callee_raised = self.logged(run, inner if depth < HARVEST_DEPTH else None)
            Tally.add(self.kernels.setdefault(name + "|" + key, Tally.new()), calls, raised, callee_raised,
                      self.source == "opinfo")
        if name in self.differentiable and not any(
                a.alias_info is not None and a.alias_info.is_write for a in func._schema.arguments):
            self.record_backward(name, func, args, kwargs)
        for callee, callee_args, callee_kwargs in inner:
            callee_name = overload_name(callee)
            if self.harvested.get(callee_name, 0) < HARVEST_SAMPLES:
                self.harvested[callee_name] = self.harvested.get(callee_name, 0) + 1
                self.record(callee, callee_args, callee_kwargs, depth + 1)

    def record_backward(self, name, func, args, kwargs):
        """The node `out.sum().backward()` runs for the operator's first output `out` that has
        one (out[0] mostly: what tests and users call), given what the engine gives it: the gradient of `out` alone
        (the other outputs' are undefined, None, which some formulas replace by zeros), as
        SumBackward0 passes it on: ones expanded to out's shape (stride 0; for a 0-dim out,
        out.backward()'s seed). Called without a TorchDispatchMode where the torch allows
        (node_calls_without_mode), else under it (then compared by name without it)."""
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
        made = [o for o in outputs if o.grad_fn is not None]
        if not made:
            return
        out = made[0]
        node = out.grad_fn
        grads = [None] * (max(o.output_nr for o in outputs if o.grad_fn is node) + 1)
        grads[out.output_nr] = torch.ones((), dtype=out.dtype, device=out.device).expand(out.shape)

        def run():
            with torch.no_grad():
                node(*grads)
        free = self.node_calls_without_mode(run)
        if free is not None and free[1] is None:
            calls, raised, callee_raised = free[0], None, False
        else:
            calls, raised, callee_raised = self.logged(run)
            if free is None and raised is None:
                self.note_mode_dependence(name, run)
        if raised is not None and "must" in str(raised) and not calls:
            return  # the call convention of the node, not the backward's outcome
        Tally.add(self.backward.setdefault(name, Tally.new()), calls, raised, callee_raised,
                  self.source == "opinfo")

    def node_calls_without_mode(self, run):
        """(calls, raised) of `run` seen by the profiler, with no TorchDispatchMode (under one,
        at::isTensorSubclassLike is true and formulas that test it take their
        composite-compliant path: prod, max, index ... call other operators there): the
        immediate operator calls that reached a kernel of the backend (each backend kernel
        marks itself), full overload names. None where the torch's profiler does not name
        overloads or the backend is not the Python one."""
        config = profiler_overload_config(self.torch)
        if config is None or self.kernel_backend is None:
            return None
        from torch.autograd import profiler
        raised = None
        self.kernel_backend.marker = lambda: profiler.record_function(BACKEND_MARK)
        try:
            with time_limit(self.seconds), below_autograd(self.torch):
                with profiler.profile(experimental_config=config) as prof:
                    with profiler.record_function(ROOT_MARK):
                        run()
        except Timeout:
            raise
        except Exception as e:  # noqa: BLE001 (the sample's outcome)
            raised = e
        finally:
            self.kernel_backend.marker = None
        try:
            roots = [e for e in prof.function_events if e.name == ROOT_MARK]
            calls = [e.name + ("." + e.overload_name if e.overload_name else "")
                     for e in operator_events(roots[0]) if reaches_backend(e)] if roots else None
        except RecursionError:  # the profiler's own event tree (complex tensors' nodes): not seen here
            return None
        if calls is None or isinstance(raised, RecursionError):
            return None
        return calls, raised

    def note_mode_dependence(self, name, run):
        """Where the node's calls were seen under the mode (the profiler names no overloads,
        or could not see the node: its event tree of complex tensors' nodes overflows):
        whether the node runs other operators (at any depth, by name) without the
        call-logging mode than under it, both seen by the profiler (a set over the whole run:
        1.x's profiler times events to the microsecond, too coarse to tell a call's parent); a
        node that does, or that the profiler cannot see, is `mode_dependent`. `detach` is left
        out: the mode's own handling of a node's saved outputs calls it."""
        with_mode, without = self.operators_run(run, self.CallLog()), self.operators_run(run, None)
        if with_mode is None or without is None or with_mode != without:
            self.mode_dependent.add(name)

    def operators_run(self, run, mode):
        """The names of every operator `run` calls, under `mode` (or none), seen by the
        profiler; None when it raised."""
        from torch.autograd import profiler
        try:
            with time_limit(self.seconds), below_autograd(self.torch), profiler.profile() as prof:
                if mode is None:
                    run()
                else:
                    with mode:
                        run()
            return {e.name for e in prof.function_events if is_operator_event(e)} - {"aten::detach"}
        except Timeout:
            raise
        except Exception:  # noqa: BLE001 (RecursionError in the profiler's tree included)
            return None

    def backward_seed(self, make_output):
        """What `.backward()` on a scalar output calls to make the gradient seed."""
        torch = self.torch
        import torch.autograd as autograd
        out = make_output()
        log = self.CallLog()
        was_cpu, self.backend.is_cpu = self.backend.is_cpu, False  # the seed is 0-dim by definition
        try:
            with log:
                autograd._make_grads((out,), (None,), is_grads_batched=False)
        finally:
            self.backend.is_cpu = was_cpu
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
    # One sample cannot tell what the input decides: "always" needs two.
    body["calls"] = [{"op": c, "when": "always" if tally["calls"][c] == body["samples"] >= MIN_ALWAYS_SAMPLES
                      else "some_inputs"} for c in order]
    return body
