#!/usr/bin/python3
"""Records real redispatch chains for `then: "redispatch"` (issue 22, item 4).

Each case defines an operator chains::opN, registers a logging Python kernel at
a random mix of dispatch keys, and calls it on tensors of trace's presets under
a random context. A kernel at a backend key returns; any other kernel logs the
row it runs at and passes the call on exactly as the manifest contract's
"redispatch" says: op.redispatch(ks & FULL_AFTER(row)), holding no TLS guard.
The golden is the sequence of rows real PyTorch ran, or the error it raised.

Needs a PyTorch whose Python kernels receive their key set (with_keyset, 2.x):
run it with the release's own Python, e.g. Debian sid's python3-torch 2.14.1 in
a chroot (see tests/redispatch_chains/README.md):
    chroot /srv/sid python3 /judge/record_chains.py > chains_2.14.1.json
Nothing here comes from dispatchctl."""
import functools
import json
import random
import sys

import torch
from torch.library import Library

BACKEND_KEYS = ["CPU", "SparseCPU", "SparseCsrCPU", "QuantizedCPU", "MkldnnCPU", "NestedTensorCPU", "Meta"]
PASSING_KEYS = ["AutogradCPU", "AutogradOther", "AutogradNestedTensor", "AutogradMeta", "ADInplaceOrView",
                "Functionalize", "AutocastCPU", "Conjugate", "Negative", "ZeroTensor", "BackendSelect"]
ALIAS_KEYS = ["Autograd", "CompositeImplicitAutograd", "CompositeExplicitAutograd"]
# Kernels registered here compute the result (check_chains.py declares them
# `then: "return"`); every other kernel passes the call on.
RETURNING_KEYS = BACKEND_KEYS + ["CompositeImplicitAutograd", "CompositeExplicitAutograd"]
# trace's --tensor presets, made the way the recorder of real calls makes them.
TENSOR_KINDS = ["cpu", "cpu:requires_grad", "cpu:conj", "cpu:neg", "cpu:inference", "meta", "sparse_cpu",
                "sparse_csr_cpu", "quantized_cpu", "mkldnn_cpu", "nested_cpu", "nested_cpu:requires_grad",
                "sparse_cpu:requires_grad", "meta:requires_grad"]
CONTEXTS = [[], [], ["--autocast", "cpu"], ["--no-grad"], ["--inference-mode"], ["--tls-include", "Functionalize"]]
BACKEND_OF = {"cpu": "CPU", "meta": "Meta", "sparse_cpu": "SparseCPU", "sparse_csr_cpu": "SparseCsrCPU",
              "quantized_cpu": "QuantizedCPU", "mkldnn_cpu": "MkldnnCPU", "nested_cpu": "NestedTensorCPU"}
CASES = 160


def make_tensor(spec):
    kind, *mods = spec.split(":")
    base = {
        "cpu": lambda: torch.ones(2, 2),
        "meta": lambda: torch.ones(2, 2, device="meta"),
        "sparse_cpu": lambda: torch.ones(2, 2).to_sparse(),
        "sparse_csr_cpu": lambda: torch.ones(2, 2).to_sparse_csr(),
        "quantized_cpu": lambda: torch.quantize_per_tensor(torch.ones(2, 2), 0.1, 0, torch.quint8),
        "mkldnn_cpu": lambda: torch.ones(2, 2).to_mkldnn(),
        "nested_cpu": lambda: torch.nested.nested_tensor([torch.ones(2), torch.ones(3)]),
    }[kind]
    t = base()
    for m in mods:
        if m == "requires_grad":
            t = t.requires_grad_(True)
        elif m == "conj":
            t = torch.ones(2, 2, dtype=torch.cfloat).conj()
        elif m == "neg":
            t = torch.ones(2, 2, dtype=torch.cfloat).conj().imag
        elif m == "inference":
            with torch.inference_mode():
                t = t.clone()
    return t


class Context:
    def __init__(self, flags):
        self.flags, self.undo = flags, []

    def __enter__(self):
        if self.flags[:1] == ["--autocast"]:
            self.undo.append(torch.autocast("cpu"))
        elif self.flags[:1] == ["--no-grad"]:
            self.undo.append(torch.no_grad())
        elif self.flags[:1] == ["--inference-mode"]:
            self.undo.append(torch.inference_mode())
        for u in self.undo:
            u.__enter__()
        if self.flags[:1] == ["--tls-include"]:
            torch._C._dispatch_tls_set_dispatch_key_included(getattr(torch._C.DispatchKey, self.flags[1]), True)

    def __exit__(self, *exc):
        if self.flags[:1] == ["--tls-include"]:
            torch._C._dispatch_tls_set_dispatch_key_included(getattr(torch._C.DispatchKey, self.flags[1]), False)
        for u in reversed(self.undo):
            u.__exit__(*exc)


def main():
    rng = random.Random(22)
    lib = Library("chains", "DEF")
    chain = []
    cases = []
    for n in range(CASES):
        arity = rng.choice([1, 2])
        name = f"op{n}"
        lib.define(f"{name}(" + ", ".join(f"Tensor x{i}" for i in range(arity)) + ") -> Tensor")
        keys = rng.sample(PASSING_KEYS, rng.randint(0, 3)) + rng.sample(BACKEND_KEYS, rng.randint(0, 2))
        if rng.random() < 0.3:
            keys.append(rng.choice(ALIAS_KEYS))
        tensors = [rng.choice(TENSOR_KINDS) for _ in range(arity)]
        # Most calls reach a kernel of their first tensor's backend: chains
        # that return, not only the dispatcher's missing-kernel error.
        own_backend = BACKEND_OF[tensors[0].split(":")[0]]
        if rng.random() < 0.6 and own_backend not in keys:
            keys.append(own_backend)
        # Alias keys last: 2.x's torch.library refuses a Meta kernel on an
        # operator that already has a CompositeImplicitAutograd one.
        keys.sort(key=lambda k: k in ALIAS_KEYS)
        op = getattr(torch.ops.chains, name).default

        def kernel(ks, *args, op=op, registered=""):
            # The row is the registered key, unless that is an alias key: then
            # the highest key of ks (Python's DispatchKey cannot name MkldnnCPU).
            row = registered if registered not in ALIAS_KEYS else ks.highestPriorityTypeId().name
            chain.append(row)
            if registered in RETURNING_KEYS:
                return args[0]
            return op.redispatch(ks & torch._C._dispatch_keyset_full_after(row), *args)

        for key in keys:
            lib.impl(name, functools.partial(kernel, registered=key), key, with_keyset=True)
        context = rng.choice(CONTEXTS)
        chain.clear()
        try:
            args = [make_tensor(s) for s in tensors]
        except Exception as e:  # a preset this build cannot make: not a case
            print(f"skipped {tensors}: {e}", file=sys.stderr)
            continue
        case = {"operator": f"chains::{name}", "schema": f"chains::{name}(" +
                ", ".join(f"Tensor x{i}" for i in range(arity)) + ") -> Tensor",
                "registered": keys, "tensors": tensors, "context": context}
        try:
            with Context(context):
                op(*args)
            case.update(returns=True)
        except Exception as e:  # the golden is what PyTorch raised
            case.update(returns=False, error_type=type(e).__name__, first_line=str(e).split("\n")[0])
        case["rows"] = list(chain)
        cases.append(case)
    json.dump({"torch_version": torch.__version__.split("+")[0], "cases": cases}, sys.stdout, indent=1)
    sys.stdout.write("\n")


main()
