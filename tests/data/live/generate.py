#!/usr/bin/python3
"""Golden data for the live-table replay, recorded from real PyTorch.

Run with the interpreter that has PyTorch 1.13.1 (Debian python3-torch):
    /usr/bin/python3 tests/data/live/generate.py > tests/data/live/torch-1.13.1.json

Each scenario registers kernels in a chosen order on two fresh operators:
  * live::<name>_t with torch._C._dispatch_library(...).impl_t_t(debug=<kernel>)
    -> records _dispatch_dump_table (recomputed), _dispatch_has_computed_kernel_
       for_dispatch_key for every parseable runtime key (answers from the LIVE
       table) and whether _dispatch_check_invariants raises;
  * live::<name>_c with torch.library Python kernels that record their name
    -> records which kernel a real call runs for each tensor kind (the live
       row, since calls use the live table), or the exception type.
The test (tests/unit/test_live_golden.cpp) replays the same registrations and
must agree; it does not need torch. Never edit the JSON by hand.
"""
import json
import warnings

import torch

warnings.filterwarnings("ignore")

SCENARIOS = [
    ("cia_then_cea", ["CompositeImplicitAutograd", "CompositeExplicitAutograd"]),
    ("cea_then_cia", ["CompositeExplicitAutograd", "CompositeImplicitAutograd"]),
    ("cia_then_sparse", ["CompositeImplicitAutograd", "SparseCPU"]),
    ("sparse_then_cia", ["SparseCPU", "CompositeImplicitAutograd"]),
    ("cia_then_dense", ["CompositeImplicitAutograd", "Dense"]),
    ("dense_then_cia", ["Dense", "CompositeImplicitAutograd"]),
    ("cia_then_nested", ["CompositeImplicitAutograd", "NestedTensorCPU"]),
    ("nested_then_cia", ["NestedTensorCPU", "CompositeImplicitAutograd"]),
    ("cpu_then_cia", ["CPU", "CompositeImplicitAutograd"]),
    ("cia_then_cpu", ["CompositeImplicitAutograd", "CPU"]),
    ("catchall_then_cea", ["", "CompositeExplicitAutograd"]),
    ("cia_then_mkldnn", ["CompositeImplicitAutograd", "MkldnnCPU"]),
    ("cia_cea_cia", ["CompositeImplicitAutograd", "CompositeExplicitAutograd",
                     "CompositeImplicitAutograd"]),
    ("autograd_then_cia", ["Autograd", "CompositeImplicitAutograd"]),
    ("cia_then_autograd_then_cea", ["CompositeImplicitAutograd", "Autograd",
                                    "CompositeExplicitAutograd"]),
    ("cia_then_quantized", ["CompositeImplicitAutograd", "Quantized"]),
]

RUNTIME_KEYS = [k for k in (
    "CPU CUDA HIP XLA MPS IPU XPU HPU VE Lazy Meta PrivateUse1 PrivateUse2 PrivateUse3 "
    "FPGA ORT Vulkan Metal QuantizedCPU QuantizedCUDA QuantizedXPU CustomRNGKeyId MkldnnCPU "
    "SparseCPU SparseCUDA SparseHIP SparseXPU SparseVE SparseCsrCPU SparseCsrCUDA "
    "NestedTensorCPU NestedTensorCUDA BackendSelect Python Fake FuncTorchDynamicLayerBackMode "
    "Functionalize Named Conjugate Negative ZeroTensor ADInplaceOrView AutogradOther "
    "AutogradCPU AutogradCUDA AutogradXLA AutogradMPS AutogradIPU AutogradXPU AutogradHPU "
    "AutogradLazy AutogradMeta AutogradPrivateUse1 AutogradPrivateUse2 AutogradPrivateUse3 "
    "AutogradNestedTensor Tracer AutocastCPU AutocastXPU AutocastCUDA FuncTorchBatched "
    "FuncTorchVmapMode Batched VmapMode FuncTorchGradWrapper DeferredInit PythonTLSSnapshot "
    "FuncTorchDynamicLayerFrontMode TESTING_ONLY_GenericWrapper TESTING_ONLY_GenericMode "
    "PythonDispatcher").split()]


def tensors():
    base = torch.randn(2)
    return {
        "cpu": lambda: torch.randn(2),
        "sparse_cpu": lambda: base.to_sparse(),
        "mkldnn_cpu": lambda: base.to_mkldnn(),
        "quantized_cpu": lambda: torch.quantize_per_tensor(base, 0.1, 0, torch.quint8),
        "nested_cpu": lambda: torch.nested.nested_tensor([base, base]),
    }


def kernel_name(i, key):
    return "k%d_%s" % (i, key or "catchall")


def main():
    defs = torch._C._dispatch_library("DEF", "live", "", "", 0)
    impl_t = torch._C._dispatch_library("IMPL", "live", "", "", 0)
    py_lib = torch.library.Library("live", "IMPL")
    ran = []
    out = {"torch_version": torch.__version__, "generator": "tests/data/live/generate.py",
           "scenarios": []}
    for name, keys in SCENARIOS:
        defs.def_(name + "_t(Tensor x) -> Tensor")
        defs.def_(name + "_c(Tensor x) -> Tensor")
        registrations = []
        for i, key in enumerate(keys):
            kname = kernel_name(i, key)
            registrations.append({"key": key, "kernel": kname})
            impl_t.impl_t_t(name + "_t", dispatch=key, debug=kname)

            def fn(x, _kname=kname):
                ran.append(_kname)
                return x
            py_lib.m.impl(name + "_c", key, fn)  # bypasses torch.library's one-kernel-per-key guard
        full = "live::" + name + "_t"
        try:
            torch._C._dispatch_check_invariants(full)
            invariants = "ok"
        except RuntimeError:
            invariants = "raised"
        has_computed = {k: torch._C._dispatch_has_computed_kernel_for_dispatch_key(full, k)
                        for k in RUNTIME_KEYS}
        calls = {}
        op = getattr(torch.ops.live, name + "_c")
        for preset, make in tensors().items():
            del ran[:]
            try:
                op(make())
                calls[preset] = {"ran": list(ran)}
            except Exception as e:  # noqa: BLE001 - the exception type is the datum
                calls[preset] = {"ran": list(ran), "error_type": type(e).__name__}
        out["scenarios"].append({
            "name": name,
            "registrations": registrations,
            "dump_table": torch._C._dispatch_dump_table(full),
            "has_computed": has_computed,
            "check_invariants": invariants,
            "calls": calls,
        })
    print(json.dumps(out, indent=1, sort_keys=False))


if __name__ == "__main__":
    main()
