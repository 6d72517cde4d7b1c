"""Sample inputs for recording what composite kernels call (docs/composite-calls.md):
PyTorch's own OpInfo samples (torch.testing._internal.common_methods_invocations.op_db),
matched to aten overloads by running each sample under a mode that sees the overloads the
Python call reaches first; inputs built from an operator's schema otherwise."""

import sys
import types

SHAPES = ((2, 3), (4,), (), (2, 1, 3))
# More inputs for a kernel the first ones did not run (schema_variants): square matrices
# (linalg), batches and image-like shapes, other dtypes (an out= of complex fft, integer
# indices), and optional arguments given a value (upsample's output_size).
VARIANT_SHAPES = ((3, 3), (2, 3, 3), (1, 2, 4, 4), (2, 3), (4,), (1, 2, 2, 2, 2))
VARIANT_DTYPES = ("float32", "complex64", "int64", "bool", "float64")
# Then forms the dtypes above do not make (float32 inputs, optionals omitted or given): out=
# tensors of the complex dtype a real-to-complex kernel writes (fft_rfft.out); the Tensor
# arguments after the first made 0-dim (a scalar tensor: _foreach_add.Tensor's other,
# quantile's q), or every one but out= (linspace.Tensor_Tensor_out), which on the CPU, where
# the first shapes have no 0-dim tensor (Backend.is_cpu), nothing else builds.
VARIANT_FORMS = ("complex_out", "scalar_others", "scalar_inputs")
REDUCTIONS = {"reduce": "sum", "reduction": "mean", "mode": "bilinear", "padding_mode": "zeros",
              "interpolation_mode": "bilinear", "approximate": "none", "rounding_mode": "floor",
              "side": "left", "indexing": "ij", "driver": None, "UPLO": "L", "uplo": "L", "ord": "fro",
              "norm": None, "fill_value": None}


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


def variant_value(torch, arg, shape, dtype, filled, device, k):
    """A value for one schema argument in variant k of the inputs (schema_variants): ints
    and list lengths differ between variants, so that one value (matrix_power's n=1) is
    not taken for every input."""
    kind = str(arg.type)
    name = arg.name
    if kind == "Optional[Device]" and name == "device":
        return device
    if kind.startswith("Optional["):
        if not filled or name in ("generator", "out_dtype", "dtype", "layout", "memory_format", "pin_memory") or (
                filled == 2 and "scale" in name):
            return None
        inner = kind[len("Optional["):-1]
        return variant_value(torch, type("Arg", (), {"type": inner, "name": name, "has_default_value":
                                                  lambda self: False})(), shape, dtype, filled, device, k)
    if kind == "Tensor":
        return variant_tensor(torch, shape, dtype, device)
    if kind == "List[Tensor]":
        return [variant_tensor(torch, shape, dtype, device) for _ in range(2 + k % 2)]
    if kind in ("List[number]", "List[Scalar]"):
        return [1] * (2 + k % 2)
    if kind in ("int", "SymInt"):
        return (0, -1)[k % 2] if "dim" in name else (1, 2)[k % 2]
    if kind == "List[bool]":
        return [True, True, True]
    if kind == "str":
        if name not in REDUCTIONS or REDUCTIONS[name] is None:
            raise ValueError("cannot build a str %s" % name)
        return REDUCTIONS[name]
    if kind in ("List[int]", "List[SymInt]") and name in ("output_size", "kernel_size"):
        return [2] * max(1, len(shape) - 2)
    if kind == "List[float]" and "scale" in name:
        return [1.0] * max(1, len(shape) - 2)
    return schema_value(torch, arg, shape, device)


def variant_tensor(torch, shape, dtype, device):
    if dtype == "bool":
        return torch.rand(shape, device=device) > 0.5
    if dtype == "int64":
        return torch.randint(0, 2, shape, device=device)
    return torch.rand(shape, dtype=getattr(torch, dtype), device=device) + 0.5


def schema_variants(torch, op, device):
    """More [(op, args, kwargs)] for an operator the first schema inputs did not run:
    VARIANT_SHAPES × VARIANT_DTYPES × optionals (omitted, given, given but the scale
    factors), out= tensors of the inputs' dtype; then VARIANT_FORMS. Many do not fit the
    kernel: the caller keeps those it runs."""
    out = []
    k = 0
    plans = [(filled, dtype, shape, None) for filled in (0, 1, 2) for dtype in VARIANT_DTYPES
             for shape in VARIANT_SHAPES]
    plans += [(filled, "float32", shape, form) for form in VARIANT_FORMS for filled in (0, 1)
              for shape in VARIANT_SHAPES]
    for filled, dtype, shape, form in plans:
        k += 1
        out_dtype = "complex64" if form == "complex_out" else dtype
        args, kwargs = [], {}
        tensors_seen = 0
        try:
            for arg in op._schema.arguments:
                has_default = getattr(arg, "has_default_value", lambda: False)()
                arg_shape = shape
                if str(arg.type) == "Tensor" and not (arg.alias_info is not None and arg.alias_info.is_write):
                    if form == "scalar_inputs" or (form == "scalar_others" and tensors_seen):
                        arg_shape = ()
                if str(arg.type) in ("Tensor", "List[Tensor]", "Optional[Tensor]"):
                    tensors_seen += 1
                if arg.alias_info is not None and arg.alias_info.is_write and arg.kwarg_only:
                    kwargs[arg.name] = variant_tensor(torch, (0,), out_dtype, device) if str(arg.type) == \
                        "Tensor" else [variant_tensor(torch, (0,), out_dtype, device) for _ in range(2)]
                elif arg.kwarg_only and has_default and not filled:
                    continue
                elif arg.kwarg_only:
                    kwargs[arg.name] = variant_value(torch, arg, arg_shape, dtype, filled, device, k)
                elif has_default and not filled and not str(arg.type).startswith("Optional["):
                    args.append(arg.default_value)
                else:
                    args.append(variant_value(torch, arg, arg_shape, dtype, filled, device, k))
        except (ValueError, TypeError, RuntimeError):
            continue
        out.append((op, tuple(args), kwargs))
    return out


def schema_samples(torch, op, device):
    """[(op, args, kwargs)] built from the schema of the OpOverload `op`."""
    out = []
    # On the CPU a call on 0-dim tensors only is taken for a CPU scalar: no 0-dim samples there.
    for shape in SHAPES if torch.device(device).type != "cpu" else [s for s in SHAPES if s]:
        args, kwargs = [], {}
        try:
            for arg in op._schema.arguments:
                if arg.kwarg_only:
                    if arg.name == "device" and str(arg.type) == "Optional[Device]":
                        kwargs["device"] = device  # a factory makes its tensor on the backend
                        continue
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
