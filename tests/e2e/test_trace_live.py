#!/usr/bin/python3
"""End-to-end: real call chains on Debian's PyTorch 1.13.1 against `dispatchctl trace`.

Logging kernels (Python, registered with torch.library) replace the CPU kernels of a
few aten operators; PyTorch's own kernels above them (VariableType, ADInplaceOrView,
Autocast, the Conjugate and Functionalize fallbacks) stay in place. Each scenario
makes one real call and records every logging kernel hit, in order, with the
thread-local include/exclude sets PyTorch has in effect there: the guards the real
kernels up the stack hold (AutoDispatchBelowADInplaceOrView,
AutoDispatchSkipFunctionalize, the Autocast exclude guard) show in those sets.
The live registry is exported with tools/dispatchctl-export.py and
`dispatchctl trace --format json` must predict the same hits with the same TLS.
Golden output is the live PyTorch's; nothing here comes from dispatchctl."""

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import e2e_common as e2e  # noqa: E402

LOGGED = ["aten::add.Tensor", "aten::add_.Tensor", "aten::mm"]


def main():
    args = e2e.arguments(__doc__)
    torch = e2e.require_torch()
    C = torch._C
    hits = []

    def logger(op, returns_self=False):
        def kernel(*a, **kw):
            hits.append({"op": op, "row": "CPU",
                         "tls_included": str(C._dispatch_tls_local_include_set()),
                         "tls_excluded": str(C._dispatch_tls_local_exclude_set())})
            return a[0] if returns_self else torch.empty(0)
        return kernel

    lib = torch.library.Library("aten", "IMPL")
    with e2e.StderrSilenced():  # c10's override warnings
        lib.impl("add.Tensor", logger("aten::add.Tensor"), "CPU")
        lib.impl("add_.Tensor", logger("aten::add_.Tensor", returns_self=True), "CPU")
        lib.impl("mm", logger("aten::mm"), "CPU")

    export = os.path.join(args.workdir, "trace_live_export.json")
    if os.path.exists(export):
        os.unlink(export)
    argv = ["-o", export]
    for op in LOGGED:
        argv += ["--op", op]
    e2e.run_exporter(args.exporter, argv)

    def functionalized(call):
        def run():
            torch._enable_functionalization(reapply_views=False)
            try:
                call()
            finally:
                torch._disable_functionalization()
        return run

    def in_inference_mode(call):
        def run():
            with torch.inference_mode():
                call()
        return run

    def autocast_cpu(call):
        def run():
            with torch.autocast("cpu"):
                call()
        return run

    def cplx(requires_grad=False):
        return torch.randn(2, dtype=torch.complex64, requires_grad=requires_grad)

    def add_conj_requires_grad():
        torch.add(cplx(True).conj(), cplx())

    def add_conj():
        torch.add(cplx().conj(), cplx())

    def mm_requires_grad():
        m = torch.randn(2, 2, requires_grad=True)
        torch.mm(m, m)

    def add_plain():
        torch.add(torch.randn(2), torch.randn(2))

    def add_inplace_requires_grad():
        x = torch.randn(2, requires_grad=True) * 1
        x.add_(torch.randn(2))

    def add_inplace_normal_tensors_in_inference_mode():
        x, y = torch.randn(2), torch.randn(2)  # normal tensors, made outside the mode
        with torch.inference_mode():
            x.add_(y)

    def add_inference_tensors():
        with torch.inference_mode():
            a, b = torch.randn(2), torch.randn(2)
            torch.add(a, b)

    scenarios = [
        ("conj under autograd", add_conj_requires_grad,
         ["aten::add.Tensor", "--tensor", "cpu:conj:requires_grad", "--tensor", "cpu"]),
        ("Functionalize over conj (README example)", functionalized(add_conj),
         ["aten::add.Tensor", "--tensor", "cpu:conj", "--tensor", "cpu", "--tls-include", "Functionalize"]),
        ("Autocast fresh call", autocast_cpu(mm_requires_grad),
         ["aten::mm", "--tensor", "cpu:requires_grad", "--tensor", "cpu:requires_grad", "--autocast", "cpu"]),
        ("Autocast then Functionalize: nested fresh calls", autocast_cpu(functionalized(mm_requires_grad)),
         ["aten::mm", "--tensor", "cpu", "--tensor", "cpu", "--autocast", "cpu", "--tls-include", "Functionalize"]),
        ("inference mode, normal tensors", in_inference_mode(add_plain),
         ["aten::add.Tensor", "--tensor", "cpu", "--tensor", "cpu", "--inference-mode"]),
        ("inference mode, Functionalize fresh call", in_inference_mode(functionalized(add_plain)),
         ["aten::add.Tensor", "--tensor", "cpu", "--tensor", "cpu", "--inference-mode",
          "--tls-include", "Functionalize"]),
        ("inference tensors in inference mode", add_inference_tensors,
         ["aten::add.Tensor", "--tensor", "cpu:inference", "--tensor", "cpu:inference", "--inference-mode"]),
        ("in-place under autograd (ADInplaceOrView kernel)", add_inplace_requires_grad,
         ["aten::add_.Tensor", "--tensor", "cpu:requires_grad", "--tensor", "cpu"]),
        ("in-place in inference mode (ADInplaceOrView's own guard)", add_inplace_normal_tensors_in_inference_mode,
         ["aten::add_.Tensor", "--tensor", "cpu", "--tensor", "cpu", "--inference-mode"]),
    ]

    failures = 0
    for name, call, trace_args in scenarios:
        del hits[:]
        call()
        live = list(hits)
        out = json.loads(e2e.dispatchctl(args.dispatchctl, ["trace"] + trace_args +
                                         ["-m", export, "--format", "json"]))
        ours = [{"op": out["operator"], "row": h["row"],
                 "tls_included": "DispatchKeySet(%s)" % ", ".join(h.get("tls_included", ["(not reported)"])),
                 "tls_excluded": "DispatchKeySet(%s)" % ", ".join(h.get("tls_excluded", ["(not reported)"]))}
                for h in out["hops"] if h["kernel"].startswith("registered at /dev/null:")]
        chain = " -> ".join(h["row"] for h in out["hops"])
        if live != ours or out["outcome"] != "completed":
            failures += 1
            print("MISMATCH %s: dispatchctl trace %s\n  trace: %s (%s)\n  live hits:  %s\n  traced hits: %s"
                  % (name, " ".join(trace_args), chain, out["outcome"], live, ours))
        else:
            print("ok %s: %s; %d logged hit(s), TLS excluded at the leaf %s"
                  % (name, chain, len(live), live[-1]["tls_excluded"] if live else "-"))
    print("torch %s: %d scenarios, %d mismatches" % (torch.__version__, len(scenarios), failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
