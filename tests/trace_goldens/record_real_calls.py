#!/usr/bin/python3
"""Records what real PyTorch does for a small set of aten calls, as goldens for
`dispatchctl trace` (check_verdicts.py): per call, "returns" or the exception's
type and first line. Run with Debian's /usr/bin/python3 (torch 1.13.1):
    /usr/bin/python3 tests/trace_goldens/record_real_calls.py > tests/trace_goldens/real_calls_1.13.1.json
Each call names its operator and its tensors in trace's --tensor syntax, so the
checker can ask dispatchctl about the same call; nothing here comes from dispatchctl."""
import json
import sys

import torch


def tensor(spec):
    kind, *mods = spec.split(":")
    if kind == "cpu":
        t = torch.ones(2, 2)
    elif kind == "meta":
        t = torch.ones(2, 2, device="meta")
    elif kind == "quantized_cpu":
        t = torch.quantize_per_tensor(torch.ones(2, 2), 0.1, 0, torch.quint8)
    elif kind == "sparse_cpu":
        t = torch.ones(2, 2).to_sparse()
    elif kind == "mkldnn_cpu":
        t = torch.ones(2, 2).to_mkldnn()
    else:
        raise ValueError(kind)
    for m in mods:
        if m == "inference":  # made under inference mode: no version counter
            with torch.inference_mode():
                t = t.clone()
        elif m == "requires_grad":
            t = t.clone().requires_grad_(True) * 1  # not a leaf
        elif m == "leaf":
            t = t.detach().requires_grad_(True)
        elif m == "conj":
            t = torch.ones(2, 2, dtype=torch.cfloat).conj()
        elif m == "neg":
            t = torch.ones(2, 2, dtype=torch.cfloat).conj().imag
    return t


# (operator, tensor specs, the call on those tensors)
CALLS = [
    ("aten::add.Tensor", ["cpu", "cpu"], lambda a, b: torch.ops.aten.add.Tensor(a, b)),
    ("aten::add.Tensor", ["quantized_cpu", "quantized_cpu"], lambda a, b: torch.ops.aten.add.Tensor(a, b)),
    ("aten::add.Tensor", ["meta", "meta"], lambda a, b: torch.ops.aten.add.Tensor(a, b)),
    ("aten::add.Tensor", ["cpu:requires_grad", "cpu"], lambda a, b: torch.ops.aten.add.Tensor(a, b)),
    ("aten::add_.Tensor", ["cpu:leaf", "cpu"], lambda a, b: torch.ops.aten.add_.Tensor(a, b)),
    ("aten::add_.Tensor", ["cpu:requires_grad", "cpu"], lambda a, b: torch.ops.aten.add_.Tensor(a, b)),
    ("aten::mul.Tensor", ["quantized_cpu", "quantized_cpu"], lambda a, b: torch.ops.aten.mul.Tensor(a, b)),
    ("aten::mm", ["quantized_cpu", "quantized_cpu"], lambda a, b: torch.ops.aten.mm(a, b)),
    ("aten::mm", ["cpu", "cpu"], lambda a, b: torch.ops.aten.mm(a, b)),
    ("aten::sin", ["quantized_cpu"], lambda a: torch.ops.aten.sin(a)),
    ("aten::sin", ["sparse_cpu"], lambda a: torch.ops.aten.sin(a)),
    ("aten::sin", ["meta"], lambda a: torch.ops.aten.sin(a)),
    ("aten::nonzero", ["quantized_cpu"], lambda a: torch.ops.aten.nonzero(a)),
    ("aten::relu", ["quantized_cpu"], lambda a: torch.ops.aten.relu(a)),
    ("aten::relu", ["mkldnn_cpu"], lambda a: torch.ops.aten.relu(a)),
    ("aten::abs", ["mkldnn_cpu"], lambda a: torch.ops.aten.abs(a)),
    ("aten::tanh", ["sparse_cpu"], lambda a: torch.ops.aten.tanh(a)),
    ("aten::exp", ["sparse_cpu"], lambda a: torch.ops.aten.exp(a)),
    # Generated composites followed (issue 22): the structured composite calls OP.out.
    ("aten::add_.Tensor", ["quantized_cpu", "quantized_cpu"], lambda a, b: torch.ops.aten.add_.Tensor(a, b)),
    ("aten::sub.Tensor", ["quantized_cpu", "quantized_cpu"], lambda a, b: torch.ops.aten.sub.Tensor(a, b)),
    ("aten::atan2", ["quantized_cpu", "quantized_cpu"], lambda a, b: torch.ops.aten.atan2(a, b)),
    ("aten::abs", ["quantized_cpu"], lambda a: torch.ops.aten.abs(a)),
    ("aten::exp", ["quantized_cpu"], lambda a: torch.ops.aten.exp(a)),
    ("aten::exp_", ["quantized_cpu"], lambda a: torch.ops.aten.exp_(a)),
    ("aten::sigmoid", ["quantized_cpu"], lambda a: torch.ops.aten.sigmoid(a)),
    ("aten::sub.Tensor", ["mkldnn_cpu", "mkldnn_cpu"], lambda a, b: torch.ops.aten.sub.Tensor(a, b)),
    ("aten::exp", ["mkldnn_cpu"], lambda a: torch.ops.aten.exp(a)),
    # The generated ADInplaceOrView / autograd kernels bump the written tensor's version.
    ("aten::add_.Tensor", ["cpu:inference", "cpu:inference"], lambda a, b: torch.ops.aten.add_.Tensor(a, b)),
    ("aten::add_.Tensor", ["cpu:inference", "cpu"], lambda a, b: torch.ops.aten.add_.Tensor(a, b)),
    ("aten::exp_", ["cpu:inference"], lambda a: torch.ops.aten.exp_(a)),
    ("aten::add.out", ["cpu", "cpu", "cpu:inference"], lambda a, b, o: torch.ops.aten.add.out(a, b, out=o)),
    ("aten::add.out", ["cpu:inference", "cpu:inference", "cpu"], lambda a, b, o: torch.ops.aten.add.out(a, b, out=o)),
    ("aten::add.Tensor", ["cpu:inference", "cpu:inference"], lambda a, b: torch.ops.aten.add.Tensor(a, b)),
]


def main():
    out = {"torch_version": torch.__version__, "calls": []}
    for op, specs, call in CALLS:
        try:
            call(*[tensor(s) for s in specs])
            result = {"returns": True}
        except Exception as e:  # the golden is what PyTorch raised
            result = {"returns": False, "error_type": type(e).__name__, "first_line": str(e).split("\n")[0]}
        out["calls"].append({"operator": op, "tensors": specs, **result})
    json.dump(out, sys.stdout, indent=1)
    sys.stdout.write("\n")


main()
