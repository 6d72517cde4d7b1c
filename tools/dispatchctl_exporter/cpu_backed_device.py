"""A PrivateUse1 backend written in Python whose tensors keep their data in CPU storage.

PyTorch >= 2.9 ships torch.utils.backend_registration._setup_privateuseone_for_python_backend:
after it, tensors of device "privateuseone" exist (torch._C._acc.create_empty_tensor) and
autograd accepts them, but they own no memory. Here every PrivateUse1 storage is paired
with a CPU storage (a table keyed by the StorageImpl): a kernel registered with
`register` turns each PrivateUse1 argument into a CPU tensor with the same storage offset,
sizes and strides over the paired CPU storage, runs the operator's CPU kernel, and turns
each result back: an argument returned (in-place, out=) is returned as the argument it
was, with its sizes and strides updated; a result over a known CPU storage (a view)
becomes a PrivateUse1 tensor over the paired storage; a new result gets a new pair. The
sizes and strides of a PrivateUse1 tensor are set with the Meta kernel of
aten::set_.source_Storage_storage_offset, which only writes metadata. So views made by
C++ (CompositeExplicitAutograd view kernels) need no kernel here: their data is found
through their storage.

Only operators `register` is given have a PrivateUse1 kernel: the others raise PyTorch's
own "Could not run ... PrivateUse1" error, and their composite kernels run as they would
on any backend. Used by the composite-call recorder (every operator with a CPU kernel
registered) and by tests/composite_calls/record_backends.py (random subsets)."""


def privateuse1_backend_available(torch):
    """True when this torch can make a Python PrivateUse1 backend (2.9 and later)."""
    try:
        from torch.utils import backend_registration
    except ImportError:
        return False
    return (hasattr(backend_registration, "_setup_privateuseone_for_python_backend")
            and hasattr(getattr(torch._C, "_acc", None), "create_empty_tensor"))


class CpuBackedPrivateUse1:
    """The backend: `device` names it, `register(op)` gives an aten overload a kernel."""

    _set_up = False

    def __init__(self, torch, library_name="aten"):
        self.torch = torch
        if not CpuBackedPrivateUse1._set_up:
            from torch.utils.backend_registration import _setup_privateuseone_for_python_backend
            _setup_privateuseone_for_python_backend("privateuseone")
            CpuBackedPrivateUse1._set_up = True
        self.device = torch.device(torch._C._get_privateuse1_backend_name(), 0)
        self.library = torch.library.Library(library_name, "IMPL")
        self.set_metadata = torch.ops.aten.set_.source_Storage_storage_offset
        self.meta_key = torch._C.DispatchKey.Meta
        # PrivateUse1 StorageImpl address -> (PrivateUse1 storage, CPU storage), and
        # CPU StorageImpl address -> PrivateUse1 storage. Both kept alive until `forget`,
        # so an address is never reused while it is in the tables.
        self.cpu_of = {}
        self.backend_of = {}
        self.registered = []
        # While set (a context-manager factory), each kernel here runs inside it: the
        # recorder's profiler run marks which calls reached this backend's kernels.
        self.marker = None

    def forget(self):
        """Drops the storage pairs (call between operators; tensors made before are dead)."""
        self.cpu_of.clear()
        self.backend_of.clear()

    def is_backend(self, t):
        return isinstance(t, self.torch.Tensor) and t.device.type == self.device.type

    def to_cpu(self, t):
        """The CPU tensor over t's paired storage, with t's metadata."""
        torch = self.torch
        storage = t.untyped_storage()
        pair = self.cpu_of.get(storage._cdata)
        if pair is None:  # made outside a kernel here (never filled): a fresh pair
            cpu_storage = torch.UntypedStorage(max(storage.nbytes(), 1))
            self.pair(storage, cpu_storage)
        else:
            cpu_storage = pair[1]
        out = torch.empty(0, dtype=t.dtype)
        out.set_(cpu_storage, t.storage_offset(), t.size(), t.stride())
        out.requires_grad_(False)
        return out

    def pair(self, backend_storage, cpu_storage):
        self.cpu_of[backend_storage._cdata] = (backend_storage, cpu_storage)
        self.backend_of[cpu_storage._cdata] = backend_storage

    def set_like(self, backend_tensor, storage, cpu_tensor):
        self.set_metadata._op_dk(self.meta_key, backend_tensor, storage, cpu_tensor.storage_offset(),
                                 list(cpu_tensor.size()), list(cpu_tensor.stride()))
        return backend_tensor

    def from_cpu(self, result, given):
        """The PrivateUse1 tensor for a CPU result of a kernel; `given` maps id(CPU argument)
        to the PrivateUse1 argument it was made from."""
        torch = self.torch
        if not isinstance(result, torch.Tensor) or result.device.type != "cpu":
            return result
        if result.layout != torch.strided:
            raise NotImplementedError("the CPU-backed PrivateUse1 backend holds strided tensors only")
        cpu_storage = result.untyped_storage()
        argument = given.get(id(result))
        if argument is not None:  # in-place or out=: the argument itself, maybe resized
            backend_storage = argument.untyped_storage()
            if self.cpu_of.get(backend_storage._cdata, (None, None))[1] is not None and \
                    self.cpu_of[backend_storage._cdata][1]._cdata != cpu_storage._cdata:
                self.pair(backend_storage, cpu_storage)  # set_ or a storage swap
            if (argument.size(), argument.stride(), argument.storage_offset()) != \
                    (result.size(), result.stride(), result.storage_offset()):
                self.set_like(argument, backend_storage, result)
            return argument
        backend_storage = self.backend_of.get(cpu_storage._cdata)
        out = torch._C._acc.create_empty_tensor([0], result.dtype)
        if backend_storage is None:  # a new storage
            backend_storage = out.untyped_storage()
            self.pair(backend_storage, cpu_storage)
        return self.set_like(out, backend_storage, result)

    def register_copies(self):
        """aten::_copy_from and _copy_from_and_resize, the copies between devices that
        copy_ calls and that have no CPU kernel to forward to: every backend has them."""
        aten = self.torch.ops.aten

        def copy_from(source, destination, non_blocking=False):
            return destination.copy_(source)

        def copy_from_and_resize(source, destination):
            return destination.resize_(source.size()).copy_(source)

        self.register(aten._copy_from.default, copy_from)
        self.register(aten._copy_from_and_resize.default, copy_from_and_resize)

    def register(self, op, on_cpu=None):
        """Gives the aten overload `op` (an OpOverload) a PrivateUse1 kernel that runs its
        CPU kernel (or `on_cpu`) on the paired CPU storage."""
        torch = self.torch
        backend = self

        def convert(value, given):
            if isinstance(value, torch.Tensor):
                if backend.is_backend(value):
                    cpu = backend.to_cpu(value)
                    given[id(cpu)] = value
                    return cpu
                return value
            if isinstance(value, torch.device):
                return torch.device("cpu") if value.type == backend.device.type else value
            if isinstance(value, (list, tuple)):
                return type(value)(convert(v, given) for v in value)
            return value

        def back(value, given):
            if isinstance(value, (list, tuple)):
                return type(value)(back(v, given) for v in value)
            return backend.from_cpu(value, given)

        tensor_positions = {i for i, a in enumerate(op._schema.arguments) if "Tensor" in str(a.type)}
        tensor_names = {a.name for a in op._schema.arguments if "Tensor" in str(a.type)}

        def unwrap_number(value):
            # A Scalar wrapped into a 0-dim tensor by C++ (wrapped_scalar_tensor) reaches a
            # Python kernel as a Python number: the CPU kernel needs the tensor back.
            if isinstance(value, (bool, int, float, complex)):
                return torch.tensor(value)
            return value

        def kernel(*args, **kwargs):
            given = {}
            args = [unwrap_number(a) if i in tensor_positions else a for i, a in enumerate(args)]
            kwargs = {k: unwrap_number(v) if k in tensor_names else v for k, v in kwargs.items()}
            cpu_args = [convert(a, given) for a in args]
            cpu_kwargs = {k: convert(v, given) for k, v in kwargs.items()}
            if backend.marker is not None:
                with backend.marker():
                    return back((on_cpu or op)(*cpu_args, **cpu_kwargs), given)
            return back((on_cpu or op)(*cpu_args, **cpu_kwargs), given)

        name = op._schema.name.split("::", 1)[1]
        overload = op._schema.overload_name
        self.library.impl(name + ("." + overload if overload else ""), kernel, "PrivateUse1")
        self.registered.append(op)
