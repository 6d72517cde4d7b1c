"""Sample inputs for recording what composite kernels call (docs/composite-calls.md):
PyTorch's own OpInfo samples (torch.testing._internal.common_methods_invocations.op_db),
matched to aten overloads by running each sample under a mode that sees the overloads the
Python call reaches first; inputs built from an operator's schema otherwise."""

import sys
import types

SHAPES = ((2, 3), (4,), (), (2, 1, 3))


def import_op_db():
    """op_db of this torch, or None. Debian's 1.13.1 lacks the test-only modules
    common_utils imports (expecttest) and 2.6.0's cpp_extension needs setuptools.command:
    stand-ins are put in place, they are never called when only samples are made."""
    try:
        import expecttest  # noqa: F401
    except ImportError:
        import unittest
        stand_in = types.ModuleType("expecttest")
        stand_in.TestCase = unittest.TestCase
        stand_in.ACCEPT = False
        sys.modules["expecttest"] = stand_in
    try:
        from torch.testing._internal.common_methods_invocations import op_db
        return op_db
    except Exception:  # noqa: BLE001
        pass
    for name in ("setuptools.command.build_ext",):
        if name not in sys.modules:
            stand_in = types.ModuleType(name)
            stand_in.build_ext = object
            sys.modules[name] = stand_in
    try:
        from torch.testing._internal.common_methods_invocations import op_db
        return op_db
    except Exception as e:  # noqa: BLE001
        print("record-composite-calls: note: no OpInfo samples (%s: %s)" % (type(e).__name__, e), file=sys.stderr)
        return None


def overload_name(func):
    schema = func._schema
    return schema.name + ("." + schema.overload_name if schema.overload_name else "")


def tree_map_tensors(value, f):
    import torch
    if isinstance(value, torch.Tensor):
        return f(value)
    if isinstance(value, (list, tuple)):
        return type(value)(tree_map_tensors(v, f) for v in value)
    if isinstance(value, dict):
        return {k: tree_map_tensors(v, f) for k, v in value.items()}
    return value


def opinfo_dtype(torch, opinfo):
    try:
        dtypes = opinfo.supported_dtypes("cpu")
    except Exception:  # noqa: BLE001
        dtypes = getattr(opinfo, "dtypes", ())
    for dtype in (torch.float32, torch.float64, torch.int64, torch.bool):
        if dtype in dtypes:
            return dtype
    return next(iter(dtypes), None)


def opinfo_samples(torch, opinfo, to_backend, max_samples, device=None):
    """[(python callable, sample args, sample kwargs)] of one OpInfo on the backend: its
    tensors moved by to_backend, a `device` argument made `device` (when given)."""
    dtype = opinfo_dtype(torch, opinfo)
    if dtype is None:
        return []
    out = []
    try:
        samples = opinfo.sample_inputs("cpu", dtype, requires_grad=False)
        for n, sample in enumerate(samples):
            if n >= max_samples:
                break
            args = (tree_map_tensors(sample.input, to_backend),) + tuple(
                tree_map_tensors(a, to_backend) for a in sample.args)
            kwargs = tree_map_tensors(dict(sample.kwargs), to_backend)
            if device is not None and kwargs.get("device") is not None:
                kwargs["device"] = device
            for f in (opinfo.op, getattr(opinfo, "inplace_variant", None)):
                if f is not None:
                    out.append((f, args, kwargs))
    except Exception:  # noqa: BLE001 (a sample generator this build cannot run)
        pass
    return out


def schema_value(torch, arg, shape, device):
    """A value for one schema argument, or raises ValueError (cannot build one)."""
    kind = str(arg.type)
    name = arg.name
    has_default = getattr(arg, "has_default_value", lambda: False)()
    if kind == "Optional[Device]" and name == "device":
        return device  # a factory makes its tensor on the backend
    if kind.startswith("Optional["):
        return None
    if kind == "Tensor":
        return torch.rand(shape, device=device) + 0.5
    if kind == "List[Tensor]":
        return [torch.rand(shape, device=device) + 0.5, torch.rand(shape, device=device) + 0.5]
    if has_default and kind not in ("Tensor",):
        return arg.default_value
    if kind in ("int", "SymInt"):
        return 0 if "dim" in name else 1
    if kind in ("List[int]", "List[SymInt]"):
        if "dim" in name:
            return [0]
        if name in ("size", "shape", "sizes"):
            return list(shape)
        return [1] * len(shape) if "stride" in name else [1]
    if kind == "float":
        return 0.5
    if kind == "bool":
        return False
    if kind in ("number", "Scalar"):
        return 1
    if kind == "ScalarType":
        return torch.float32
    if kind == "Layout":
        return torch.strided
    if kind == "Device":
        return device
    if kind == "MemoryFormat":
        return torch.contiguous_format
    raise ValueError("cannot build a %s" % kind)


def schema_samples(torch, op, device):
    """[(op, args, kwargs)] built from the schema of the OpOverload `op`."""
    out = []
    for shape in SHAPES:
        args, kwargs = [], {}
        try:
            for arg in op._schema.arguments:
                if arg.kwarg_only:
                    if getattr(arg, "has_default_value", lambda: False)():
                        continue
                    if arg.alias_info is not None and arg.alias_info.is_write:
                        kwargs[arg.name] = torch.empty(0, device=device)
                        continue
                    kwargs[arg.name] = schema_value(torch, arg, shape, device)
                else:
                    args.append(schema_value(torch, arg, shape, device))
        except ValueError:
            return []
        out.append((op, tuple(args), kwargs))
    return out
