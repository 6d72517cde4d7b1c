"""Real 2.14.1 outcomes for the backward unit tests (tests/unit/test_trace_backward.cpp): one Python PrivateUse1 backend per
case (a process each: kernels cannot be unregistered), its kernels the allocation and
copy ones plus the case's."""
import json, subprocess, sys, os
# Run in the sid chroot with tools/dispatchctl_exporter beside this script (as record_backends.py).
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
ALWAYS = ["aten::empty.memory_format", "aten::empty_strided"]
CASES = {
    "no_fill": ["aten::neg", "aten::sum.IntList_out", "aten::as_strided"],
    "no_sum": ["aten::neg", "aten::fill_.Scalar", "aten::as_strided"],
    "no_as_strided": ["aten::neg", "aten::fill_.Scalar", "aten::sum.IntList_out"],
    "all": ["aten::neg", "aten::fill_.Scalar", "aten::sum.IntList_out", "aten::as_strided"],
}
def run(case, dim0):
    import torch
    from dispatchctl_exporter.cpu_backed_device import CpuBackedPrivateUse1
    from dispatchctl_exporter.composite_worker import resolve_overload
    b = CpuBackedPrivateUse1(torch)
    for n in ALWAYS + CASES[case]:
        b.register(resolve_overload(torch, n))
    b.register_copies()
    cpu = torch.randn(()) if dim0 else torch.randn(3)
    x = torch._C._acc.create_empty_tensor([0], cpu.dtype)
    c = cpu.clone()
    b.pair(x.untyped_storage(), c.untyped_storage()); b.set_like(x, x.untyped_storage(), c)
    x.requires_grad_(True)
    try:
        out = torch.neg(x)
        (out if out.dim() == 0 else out.sum()).backward()
        return "ok"
    except Exception as e:
        return str(e).strip().split("\n")[0]
if len(sys.argv) > 1:
    print(json.dumps(run(sys.argv[1], sys.argv[2] == "1"))); sys.stdout.flush(); os._exit(0)
for case in CASES:
    for dim0 in (0, 1):
        out = subprocess.run([sys.executable, __file__, case, str(dim0)], capture_output=True, text=True)
        print(case, "0-dim" if dim0 else "3", out.stdout.strip() or out.stderr.strip()[-300:])
