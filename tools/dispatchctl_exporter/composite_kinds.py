"""What composite kernels call on PyTorch's other kinds of tensors (docs/composite-calls.md,
"kinds"): the same kernels, run the same way (composite_recorder.Recorder), on samples whose
floating-point CPU tensors are made sparse COO, sparse CSR, quantized, mkldnn, nested or
meta (the kinds trace's --tensor presets model). A kind's calls differ from the dense ones:
a sparse tensor's `std` calls `std.correction`, which has no SparseCPU kernel. A call
counts for a kind when one of its tensors carries the kind's dispatch key; the dense
calls a sparse kernel makes on its values are not the kind's.

Units "kinds:opinfo:INDEX" and "kinds:schema:OPERATOR" (composite_worker.py) record every
kind at once: the OpInfo's samples are made once per kind from the same generator."""

from dispatchctl_exporter.composite_recorder import Backend, Recorder, Timeout

# (trace's --tensor preset, the runtime dispatch key its tensors carry). The dense CPU kind
# is recorded only where the main recording is not on CPU tensors already.
KINDS = [("cpu", "CPU"), ("meta", "Meta"), ("sparse_cpu", "SparseCPU"), ("sparse_csr_cpu", "SparseCsrCPU"),
         ("quantized_cpu", "QuantizedCPU"), ("mkldnn_cpu", "MkldnnCPU"), ("nested_cpu", "NestedTensorCPU")]
KIND_MAX_SAMPLES_PER_OPINFO = 4
KIND_MAX_SAMPLES_PER_OVERLOAD = 4


def kinds_to_record(main_backend):
    return [(name, key) for name, key in KINDS if key != main_backend]


def convert(torch, kind, t):
    """`t` as a tensor of `kind`; unchanged when it is not a floating-point dense CPU tensor
    (an index or a mask stays one) or the kind cannot hold it (a 1-D CSR tensor)."""
    if not isinstance(t, torch.Tensor) or t.device.type != "cpu" or t.layout != torch.strided or \
            not t.is_floating_point() or t.is_quantized:
        return t
    try:
        if kind == "cpu":
            return t
        if kind == "meta":
            return t.to("meta")
        if kind == "sparse_cpu":
            return t.to_sparse()
        if kind == "sparse_csr_cpu":
            return t.to_sparse_csr() if t.dim() == 2 else t
        if kind == "quantized_cpu":
            return torch.quantize_per_tensor(t.float(), 0.1, 0, torch.quint8)
        if kind == "mkldnn_cpu":
            return t.float().to_mkldnn() if t.dim() > 0 else t
        if kind == "nested_cpu":
            return torch.nested.nested_tensor([t, t]) if t.dim() > 0 else t
    except Exception:  # noqa: BLE001 (this kind cannot hold it: the sample keeps a dense tensor)
        return t
    raise ValueError(kind)


class KindBackend:
    """composite_recorder.Backend's interface for one kind: a call counts when one of its
    tensors carries the kind's key."""

    def __init__(self, torch, kind, key):
        self.torch = torch
        self.kind, self.key = kind, key
        self.device = torch.device("meta" if kind == "meta" else "cpu")
        self.is_cpu = False  # no 0-dim rule: the kind's key tells its calls apart

    tensors = Backend.tensors  # the same walk over a call's arguments

    def of_kind(self, t):
        # By name: Python's DispatchKey enum lacks some keys (MkldnnCPU).
        text = str(self.torch._C._dispatch_keys(t))  # "DispatchKeySet(SparseCPU, ADInplaceOrView, ...)"
        return self.key in [k.strip() for k in text[text.find("(") + 1:text.rfind(")")].split(",")]

    def sample_on_backend(self, args, kwargs):
        return any(self.of_kind(t) for t in self.tensors((args, kwargs), []))

    def counts(self, args, kwargs, result):
        return self.sample_on_backend(args, kwargs)


def kind_recorders(torch, plan, main_backend):
    """[(kind, key, Recorder)] of the kinds this torch can make."""
    out = []
    probe = torch.ones(2, 2)
    for kind, key in kinds_to_record(main_backend):
        backend = KindBackend(torch, kind, key)
        if not backend.of_kind(convert(torch, kind, probe)):
            continue  # this release cannot make the kind
        # No backward per kind: the autograd node's calls are recorded on dense tensors.
        out.append((kind, key, Recorder(torch, backend, plan["composites"], set(), plan.get("seconds", 20))))
    return out


def record_kinds_unit(torch, recorders, what, op_db, record_opinfo, schema_samples, resolve_overload):
    """One kinds unit ("opinfo:INDEX" or "schema:OPERATOR"): {key: kernel tallies}."""
    out = {}
    source, _, name = what.partition(":")
    for kind, key, recorder in recorders:
        recorder.kernels, recorder.backward, recorder.harvested = {}, {}, {}
        recorder.source = source

        def to_kind(t, kind=kind):
            return convert(torch, kind, t)
        try:
            if source == "opinfo":
                record_opinfo(torch, recorder, op_db[int(name)], to_kind, KIND_MAX_SAMPLES_PER_OPINFO,
                              KIND_MAX_SAMPLES_PER_OVERLOAD)
            else:
                for func, args, kwargs in schema_samples(torch, resolve_overload(torch, name), "cpu"):
                    args = tuple(convert(torch, kind, a) if isinstance(a, torch.Tensor) else
                                 [convert(torch, kind, x) for x in a] if isinstance(a, list) else a for a in args)
                    recorder.record(func, args, kwargs)
        except Timeout:
            raise
        except Exception:  # noqa: BLE001 (this kind's samples stop here; the others go on)
            pass
        if recorder.kernels:
            out[key] = recorder.kernels
    return out


def merge_kind_tallies(into, message, merge_tallies):
    for key, tallies in message.get("kinds", {}).items():
        merge_tallies(into.setdefault(key, {}), tallies)


def kinds_section(plan, by_key, entry_of):
    """The file's "kinds" array: per kind recorded, its kernels' entries (as "kernels")."""
    names = dict((key, kind) for kind, key in KINDS)
    out = []
    for key in sorted(by_key, key=lambda k: [k2 for _, k2 in KINDS].index(k) if k in names else 99):
        kernels = []
        for op in sorted(plan["composites"]):
            for composite_key in plan["composites"][op]:
                tally = by_key[key].get(op + "|" + composite_key)
                body = entry_of(tally) if tally else None
                if body:
                    kernels.append(dict({"op": op, "key": composite_key}, **body))
        if kernels:
            out.append({"key": key, "tensors": names.get(key, key), "kernels": kernels})
    return out
