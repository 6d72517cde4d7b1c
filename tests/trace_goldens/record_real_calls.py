#!/usr/bin/python3
"""Records what real PyTorch does for a generated matrix of aten calls, as
goldens for `dispatchctl trace` (check_verdicts.py): 41 common operators x the
tensor kinds of trace's --tensor presets x modifiers and contexts. Per call:
"returns", or the exception's type and first line. Run with Debian's
/usr/bin/python3 (torch 1.13.1):
    /usr/bin/python3 tests/trace_goldens/record_real_calls.py > tests/trace_goldens/real_calls_1.13.1.json
    /usr/bin/python3 tests/trace_goldens/record_real_calls.py held-out \
        > tests/trace_goldens/real_calls_held_out_1.13.1.json
    /usr/bin/python3 tests/trace_goldens/record_real_calls.py composite | gzip -n -9 \
        > tests/composite_calls/real_calls_composite_1.13.1.json.gz
and 2.14.1's wider composite set, in a Debian sid chroot (python3-torch 2.14.1):
    chroot /work/chroots/sid python3 tests/trace_goldens/record_real_calls.py composite-wide | gzip -n -9 \
        > tests/composite_calls/real_calls_composite_2.14.1.json.gz
and the same set from 2.6.0, in a Debian trixie chroot (its CPU-only build; checked against
builtin:2.6.0+cuda, see check_verdicts.py's OTHER_BUILD):
    chroot /work/chroots/trixie python3 tests/trace_goldens/record_real_calls.py composite-wide | gzip -n -9 \
        > tests/trace_goldens/real_calls_composite_2.6.0+cuda.json.gz
Each call says exactly which trace flags reproduce it: its tensors in trace's
--tensor syntax (in schema order) and its context flags (--autocast cpu,
--no-grad, --inference-mode), plus the real dispatch key set of every tensor
(torch._C._dispatch_keys), so the checker can confirm trace builds the same
tensors. A combination real PyTorch cannot make (a quantized tensor that
requires grad, a conjugate bit on a sparse tensor) is not recorded.
Nothing here comes from dispatchctl."""
import contextlib
import json
import sys
import warnings

import torch

warnings.filterwarnings("ignore")

KINDS = ["cpu", "meta", "sparse_cpu", "sparse_csr_cpu", "quantized_cpu", "mkldnn_cpu", "nested_cpu"]


def base(kind, complex_values=False):
    dtype = torch.cfloat if complex_values else torch.float32
    if kind == "cpu":
        return torch.ones(2, 2, dtype=dtype)
    if kind == "meta":
        return torch.ones(2, 2, dtype=dtype, device="meta")
    if kind == "sparse_cpu":
        return torch.ones(2, 2, dtype=dtype).to_sparse()
    if kind == "sparse_csr_cpu":
        return torch.ones(2, 2, dtype=dtype).to_sparse_csr()
    if kind == "quantized_cpu":
        return torch.quantize_per_tensor(torch.ones(2, 2), 0.1, 0, torch.quint8)
    if kind == "mkldnn_cpu":
        return torch.ones(2, 2, dtype=dtype).to_mkldnn()
    if kind == "nested_cpu":
        return torch.nested.nested_tensor([torch.ones(2, 2, dtype=dtype), torch.ones(2, 2, dtype=dtype)])
    raise ValueError(kind)


def make(kind, modifier):
    """A tensor of `kind` with trace's `modifier` ("" for none)."""
    if modifier == "":
        return base(kind)
    if modifier == "leaf":  # a leaf that requires grad
        return base(kind).requires_grad_(True)
    if modifier == "requires_grad":  # requires grad, not a leaf
        return base(kind).requires_grad_(True).clone()
    if modifier == "inference":  # made under inference mode: no version counter, no autograd keys
        with torch.inference_mode():
            return base(kind)
    if modifier == "conj":
        return base(kind, complex_values=True).conj()
    if modifier == "neg":
        return base(kind, complex_values=True).conj().imag
    raise ValueError(modifier)


# The modifier or context of a call: (name, tensor modifier of the main
# tensors, the context manager, trace's flags for that context).
VARIANTS = [
    ("plain", "", contextlib.nullcontext, []),
    ("requires_grad", "requires_grad", contextlib.nullcontext, []),
    ("leaf", "leaf", contextlib.nullcontext, []),
    ("inference", "inference", contextlib.nullcontext, []),
    ("conj", "conj", contextlib.nullcontext, []),
    ("neg", "neg", contextlib.nullcontext, []),
    ("autocast", "", lambda: torch.autocast("cpu"), ["--autocast", "cpu"]),
    ("no_grad", "leaf", torch.no_grad, ["--no-grad"]),
    ("inference_mode", "", torch.inference_mode, ["--inference-mode"]),
]


def aten(name):
    base_name, _, overload = name.partition(".")
    return getattr(getattr(torch.ops.aten, base_name), overload or "default")


# (overload, tensor arguments in schema order, the call). "T" is a tensor of
# the call's kind and variant; "idx" a CPU int64 index, "cond" a CPU bool
# tensor (plain CPU tensors in every call). The call takes the tensors in order.
OPS = [
    ("add.Tensor", "T T", lambda f, a, b: f(a, b)),
    ("add_.Tensor", "T T", lambda f, a, b: f(a, b)),
    ("add.out", "T T T", lambda f, a, b, o: f(a, b, out=o)),
    ("sub.Tensor", "T T", lambda f, a, b: f(a, b)),
    ("mul.Tensor", "T T", lambda f, a, b: f(a, b)),
    ("mul_.Tensor", "T T", lambda f, a, b: f(a, b)),
    ("mul.out", "T T T", lambda f, a, b, o: f(a, b, out=o)),
    ("div.Tensor", "T T", lambda f, a, b: f(a, b)),
    ("neg", "T", lambda f, a: f(a)),
    ("abs", "T", lambda f, a: f(a)),
    ("abs_", "T", lambda f, a: f(a)),
    ("exp", "T", lambda f, a: f(a)),
    ("exp_", "T", lambda f, a: f(a)),
    ("exp.out", "T T", lambda f, a, o: f(a, out=o)),
    ("sqrt", "T", lambda f, a: f(a)),
    ("relu", "T", lambda f, a: f(a)),
    ("relu_", "T", lambda f, a: f(a)),
    ("sigmoid", "T", lambda f, a: f(a)),
    ("tanh", "T", lambda f, a: f(a)),
    ("tanh_", "T", lambda f, a: f(a)),
    ("mm", "T T", lambda f, a, b: f(a, b)),
    ("matmul", "T T", lambda f, a, b: f(a, b)),
    ("addmm", "T T T", lambda f, a, b, c: f(a, b, c)),
    ("mm.out", "T T T", lambda f, a, b, o: f(a, b, out=o)),
    ("sum", "T", lambda f, a: f(a)),
    ("mean", "T", lambda f, a: f(a)),
    ("clone", "T", lambda f, a: f(a)),
    ("copy_", "T T", lambda f, a, b: f(a, b)),
    ("view", "T", lambda f, a: f(a, [4])),
    ("reshape", "T", lambda f, a: f(a, [4])),
    ("transpose.int", "T", lambda f, a: f(a, 0, 1)),
    ("t", "T", lambda f, a: f(a)),
    ("cat", "T T", lambda f, a, b: f([a, b])),
    ("index_select", "T idx", lambda f, a, i: f(a, 0, i)),
    ("softmax.int", "T", lambda f, a: f(a, 1)),
    ("fill_.Scalar", "T", lambda f, a: f(a, 2.0)),
    ("zero_", "T", lambda f, a: f(a)),
    ("nonzero", "T", lambda f, a: f(a)),
    ("where.self", "cond T T", lambda f, c, a, b: f(c, a, b)),
    ("linear", "T T", lambda f, a, w: f(a, w)),
    ("dropout", "T", lambda f, a: f(a, 0.5, True)),
]


# A second set, held out while trace's model was fixed against OPS: 40 other
# operators, the same kinds and variants (real_calls_held_out_1.13.1.json).
HELD_OUT_OPS = [
    ("sub_.Tensor", "T T", lambda f, a, b: f(a, b)),
    ("div_.Tensor", "T T", lambda f, a, b: f(a, b)),
    ("sub.out", "T T T", lambda f, a, b, o: f(a, b, out=o)),
    ("pow.Tensor_Scalar", "T", lambda f, a: f(a, 2)),
    ("pow_.Scalar", "T", lambda f, a: f(a, 2)),
    ("bmm", "T T", lambda f, a, b: f(a.unsqueeze(0) if a.layout == torch.strided and not a.is_nested else a, b.unsqueeze(0) if b.layout == torch.strided and not b.is_nested else b)),
    ("addmm_", "T T T", lambda f, a, b, c: f(a, b, c)),
    ("log_softmax.int", "T", lambda f, a: f(a, 1)),
    ("permute", "T", lambda f, a: f(a, [1, 0])),
    ("unsqueeze", "T", lambda f, a: f(a, 0)),
    ("expand", "T", lambda f, a: f(a, [2, 2])),
    ("masked_fill_.Scalar", "T cond", lambda f, a, m: f(a, m, 1.0)),
    ("eq.Tensor", "T T", lambda f, a, b: f(a, b)),
    ("argmax", "T", lambda f, a: f(a)),
    ("clamp", "T", lambda f, a: f(a, 0.0, 1.0)),
    ("rsqrt", "T", lambda f, a: f(a)),
    ("log", "T", lambda f, a: f(a)),
    ("log.out", "T T", lambda f, a, o: f(a, out=o)),
    ("zeros_like", "T", lambda f, a: f(a)),
    ("contiguous", "T", lambda f, a: f(a)),
    ("_to_copy", "T", lambda f, a: f(a, dtype=torch.float64)),
    ("sum.dim_IntList", "T", lambda f, a: f(a, [0])),
    ("max", "T", lambda f, a: f(a)),
    ("cumsum", "T", lambda f, a: f(a, 0)),
    ("sigmoid_", "T", lambda f, a: f(a)),
    ("sigmoid.out", "T T", lambda f, a, o: f(a, out=o)),
    ("neg_", "T", lambda f, a: f(a)),
    ("sqrt_", "T", lambda f, a: f(a)),
    ("detach", "T", lambda f, a: f(a)),
    ("flatten.using_ints", "T", lambda f, a: f(a)),
    ("squeeze.dim", "T", lambda f, a: f(a, 0)),
    ("gelu", "T", lambda f, a: f(a)),
    ("layer_norm", "T", lambda f, a: f(a, [2])),
    ("embedding", "T idx", lambda f, w, i: f(w, i)),
    ("select.int", "T", lambda f, a: f(a, 0, 0)),
    ("slice.Tensor", "T", lambda f, a: f(a, 0, 0, 1)),
    ("stack", "T T", lambda f, a, b: f([a, b])),
    ("maximum", "T T", lambda f, a, b: f(a, b)),
    ("logical_not", "T", lambda f, a: f(a)),
    ("bitwise_and.Tensor_out", "T T T", lambda f, a, b, o: f(a, b, out=o)),
]


# A third set, for composite call graphs (issue 30): operators whose 1.13.1 row holds a
# hand-written composite kernel, so what they do on a kind of tensor depends on what the
# kernel calls (tests/composite_calls/real_calls_composite_1.13.1.json.gz). Fewer variants:
# the composite decides, not the context.
COMPOSITE_OPS = [
    ("std.dim", "T", lambda f, a: f(a, [0])),
    ("var.dim", "T", lambda f, a: f(a, [0])),
    ("std_mean.dim", "T", lambda f, a: f(a, [0])),
    ("softmax.int", "T", lambda f, a: f(a, 1)),
    ("log_softmax.int", "T", lambda f, a: f(a, 1)),
    ("linear", "T T", lambda f, a, b: f(a, b)),
    ("full_like", "T", lambda f, a: f(a, 2.0)),
    ("ones_like", "T", lambda f, a: f(a)),
    ("zeros_like", "T", lambda f, a: f(a)),
    ("div_.Scalar", "T", lambda f, a: f(a, 2.0)),
    ("mul_.Scalar", "T", lambda f, a: f(a, 2.0)),
    ("add.Scalar", "T", lambda f, a: f(a, 1.0)),
    ("rsub.Scalar", "T", lambda f, a: f(a, 1.0)),
    ("square", "T", lambda f, a: f(a)),
    ("flatten.using_ints", "T", lambda f, a: f(a)),
    ("expand_as", "T T", lambda f, a, b: f(a, b)),
    ("type_as", "T T", lambda f, a, b: f(a, b)),
    ("contiguous", "T", lambda f, a: f(a)),
    ("narrow", "T", lambda f, a: f(a, 0, 0, 1)),
    ("chunk", "T", lambda f, a: f(a, 2)),
    ("unbind.int", "T", lambda f, a: f(a)),
    ("stack", "T T", lambda f, a, b: f([a, b])),
    ("relu6", "T", lambda f, a: f(a)),
    ("dropout", "T", lambda f, a: f(a, 0.5, False)),
    ("inverse", "T", lambda f, a: f(a)),
    ("det", "T", lambda f, a: f(a)),
    ("outer", "T T", lambda f, a, b: f(a[0], b[0])),
    ("inner", "T T", lambda f, a, b: f(a, b)),
    ("kron", "T T", lambda f, a, b: f(a, b)),
    ("diagflat", "T", lambda f, a: f(a)),
    ("logsumexp", "T", lambda f, a: f(a, [1])),
    ("sum_to_size", "T", lambda f, a: f(a, [1, 2])),
    ("layer_norm", "T", lambda f, a: f(a, [2])),
    ("group_norm", "T", lambda f, a: f(a, 1)),
    ("norm.Scalar", "T", lambda f, a: f(a)),
    ("frobenius_norm.dim", "T", lambda f, a: f(a, [0, 1])),
    ("cosine_similarity", "T T", lambda f, a, b: f(a, b)),
    ("pairwise_distance", "T T", lambda f, a, b: f(a, b)),
    ("mse_loss", "T T", lambda f, a, b: f(a, b)),
    ("l1_loss", "T T", lambda f, a, b: f(a, b)),
    ("where.ScalarOther", "cond T", lambda f, c, a: f(c, a, 0.0)),
    ("clamp_min_", "T", lambda f, a: f(a, 0.5)),
    ("full.names", "", None),
][:-1]
COMPOSITE_VARIANTS = ("plain", "leaf", "autocast", "inference_mode")

# A wider composite set (`composite-wide`, recorded from 2.14.1 in a sid chroot:
# tests/composite_calls/real_calls_composite_2.14.1.json.gz): COMPOSITE_OPS and
# these, whose 2.14.1 rows at SparseCPU and NestedTensorCPU hold hand-written
# composites. An operator the release lacks is left out.
MORE_COMPOSITE_OPS = [
    ("std", "T", lambda f, a: f(a)),
    ("var", "T", lambda f, a: f(a)),
    ("var_mean.dim", "T", lambda f, a: f(a, [0])),
    ("mean", "T", lambda f, a: f(a)),
    ("cov", "T", lambda f, a: f(a)),
    ("matrix_power", "T", lambda f, a: f(a, 2)),
    ("linalg_norm", "T", lambda f, a: f(a)),
    ("einsum", "T T", lambda f, a, b: f("ij,jk->ik", [a, b])),
    ("tensordot", "T T", lambda f, a, b: f(a, b, [1], [0])),
    ("cdist", "T T", lambda f, a, b: f(a, b)),
    ("selu", "T", lambda f, a: f(a)),
    ("celu", "T", lambda f, a: f(a)),
    ("log_sigmoid", "T", lambda f, a: f(a)),
    ("tile", "T", lambda f, a: f(a, [2])),
    ("movedim.int", "T", lambda f, a: f(a, 0, 1)),
    ("swapaxes", "T", lambda f, a: f(a, 0, 1)),
    ("ravel", "T", lambda f, a: f(a)),
    ("view_as", "T T", lambda f, a, b: f(a, b)),
    ("pinverse", "T", lambda f, a: f(a)),
    ("logdet", "T", lambda f, a: f(a)),
    ("kl_div", "T T", lambda f, a, b: f(a, b)),
    ("binary_cross_entropy_with_logits", "T T", lambda f, a, b: f(a, b)),
    ("true_divide.Tensor", "T T", lambda f, a, b: f(a, b)),
    ("negative", "T", lambda f, a: f(a)),
    ("clip", "T", lambda f, a: f(a, 0.0, 1.0)),
    ("sub.Scalar", "T", lambda f, a: f(a, 1.0)),
    ("mul.Scalar", "T", lambda f, a: f(a, 2.0)),
    ("linalg_inv", "T", lambda f, a: f(a)),
    ("dist", "T T", lambda f, a, b: f(a, b)),
    ("nanmean", "T", lambda f, a: f(a)),
    ("argsort", "T", lambda f, a: f(a)),
    ("diff", "T", lambda f, a: f(a)),
    ("isclose", "T T", lambda f, a, b: f(a, b)),
    ("mT", "T", lambda f, a: f(a)),
    ("unflatten.int", "T", lambda f, a: f(a, 1, [2, 1])),
    ("new_zeros", "T", lambda f, a: f(a, [2])),
]


def keys_of(t):
    text = str(torch._C._dispatch_keys(t))  # "DispatchKeySet(CPU, ADInplaceOrView, ...)"
    inner = text[text.index("(") + 1:text.rindex(")")]
    return [k.strip() for k in inner.split(",") if k.strip()]


def constructible(t, modifier):
    """Whether the tensor really is what trace's modifier says (PyTorch may
    refuse it, or give a sparse tensor's conj() no Conjugate bit)."""
    keys = keys_of(t)
    if modifier == "conj":
        return "Conjugate" in keys
    if modifier == "neg":
        return "Negative" in keys
    return True


def arguments(roles, kind, modifier):
    """The tensors of a call and their trace specs, or None if PyTorch cannot make them."""
    tensors, specs = [], []
    for role in roles.split():
        if role == "idx":
            tensors.append(torch.tensor([0]))
            specs.append("cpu")
        elif role == "cond":
            tensors.append(torch.tensor([[True, False], [False, True]]))
            specs.append("cpu")
        else:
            try:
                t = make(kind, modifier)
            except Exception:  # e.g. a quantized tensor cannot require grad
                return None
            if not constructible(t, modifier):
                return None
            tensors.append(t)
            specs.append(kind + (":" + modifier if modifier else ""))
    return tensors, specs


def record(name, roles, call, kind, variant):
    label, modifier, context, flags = variant
    made = arguments(roles, kind, modifier)
    if made is None:
        return None
    tensors, specs = made
    entry = {"operator": "aten::" + name, "variant": label, "tensors": specs, "flags": flags,
             "keys": [keys_of(t) for t in tensors]}
    try:
        with context():
            call(aten(name), *tensors)
        entry["returns"] = True
    except Exception as e:  # the golden is what PyTorch raised
        entry.update(returns=False, error_type=type(e).__name__, first_line=str(e).split("\n")[0])
    return entry


def generated_calls(operators):
    """What torchgen's generated kernels call, from the real torchgen of this
    torch (its packaged native_functions.yaml), for `operators` and everything
    they reach: a structured operator's generated composite calls its
    structured_delegate (OP.out); an `autogen`'d out= kernel calls the
    functional operator of its group, an autogen'd functional kernel the
    in-place (or mutable) one. check_verdicts.py classifies a missing-kernel
    error on an operator reached this way as the generated kernels' error."""
    import os
    import torchgen
    from torchgen.gen import parse_native_yaml
    from torchgen.model import SchemaKind

    native = os.path.join(os.path.dirname(torchgen.__file__), "packaged", "ATen", "native")
    parsed = parse_native_yaml(os.path.join(native, "native_functions.yaml"), os.path.join(native, "tags.yaml"))
    by_name = {str(f.func.name): f for f in parsed.native_functions}
    by_signature = {}
    for f in parsed.native_functions:
        by_signature.setdefault(str(f.func.signature()), []).append(f)
    calls = {}
    for f in parsed.native_functions:
        if f.structured_delegate:
            calls.setdefault(str(f.func.name), []).append(str(f.structured_delegate))
        for made in map(str, f.autogen):
            g = by_name.get(made)
            if g is None:  # named in autogen but not generated by this torchgen
                continue
            group = by_signature[str(g.func.signature())]
            wanted = [SchemaKind.functional] if g.func.kind() == SchemaKind.out else [SchemaKind.inplace,
                                                                                       SchemaKind.mutable]
            callee = [str(h.func.name) for h in group if h.func.kind() in wanted and h is not g]
            calls.setdefault(made, []).extend(callee[:1])
    reached, todo = {}, [o.split("::")[1] for o in operators]
    while todo:
        name = todo.pop()
        if name in reached or name not in calls:
            continue
        reached[name] = calls[name]
        todo.extend(calls[name])
    return {"aten::" + k: ["aten::" + c for c in v] for k, v in sorted(reached.items())}


def autograd_kernels(operators):
    """Where each operator's ADInplaceOrView and AutogradCPU kernels come from,
    as real PyTorch's _dispatch_dump_table says ("registered at FILE:LINE"):
    torchgen's generated ones (torch/csrc/autograd/generated/) or hand-written
    ones (VariableTypeManual.cpp: copy_, detach ...). check_verdicts.py counts
    the in-place checks as the generated kernels' errors only for the former."""
    kernels = {}
    for op in operators:
        rows = {}
        for line in torch._C._dispatch_dump_table(op).splitlines():
            key, _, rest = line.partition(": ")
            if key in ("ADInplaceOrView", "AutogradCPU"):
                rows[key] = rest
        kernels[op] = rows
    return kernels


def exists(name):
    try:
        aten(name)
        return True
    except (AttributeError, RuntimeError):
        return False


def main():
    which = sys.argv[1] if len(sys.argv) > 1 else "main"
    operators = {"main": OPS, "held-out": HELD_OUT_OPS, "composite": COMPOSITE_OPS,
                 "composite-wide": COMPOSITE_OPS + MORE_COMPOSITE_OPS}[which]
    variants = [v for v in VARIANTS if not which.startswith("composite") or v[0] in COMPOSITE_VARIANTS]
    operators = [o for o in operators if exists(o[0])]
    calls = []
    for name, roles, call in operators:
        for kind in KINDS:
            for variant in variants:
                entry = record(name, roles, call, kind, variant)
                if entry:
                    calls.append(entry)
    # One call per line: the file diffs by call.
    sys.stdout.write('{"torch_version": ' + json.dumps(torch.__version__) + ',\n "generated_calls": ' +
                     json.dumps(generated_calls(sorted({c["operator"] for c in calls}))) + ',\n "autograd_kernels": ' +
                     json.dumps(autograd_kernels(sorted({c["operator"] for c in calls}))) + ',\n "calls": [\n')
    sys.stdout.write(",\n".join(json.dumps(c) for c in calls))
    sys.stdout.write("\n]}\n")


main()
