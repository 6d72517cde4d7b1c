"""dispatchctl.from_torch() against the real torch this interpreter imports (Debian's 1.13.1 at
/usr/bin/python3; the test fails, never skips, without it): every operator's table equals
torch._C._dispatch_dump_table line for line, and has_kernel equals PyTorch's own answers."""
import re

import torch

import dispatchctl

LINE = re.compile(r"^(\w+): (.*)$")
KEYS = ["CPU", "Meta", "CompositeImplicitAutograd", "CompositeExplicitAutograd", "AutogradCPU", "Autograd",
        "SparseCPU", "QuantizedCPU", "BackendSelect", "Functionalize"]
COMPUTED_KEYS = ["CPU", "Meta", "AutogradCPU", "SparseCPU", "QuantizedCPU", "Functionalize", "Python"]


def live_operators():
    # 1.13 has no _dispatch_get_all_op_names: every operator with a registration at any key ("").
    C = torch._C
    if hasattr(C, "_dispatch_get_all_op_names"):
        return sorted(C._dispatch_get_all_op_names())
    return sorted(C._dispatch_get_registrations_for_dispatch_key(""))


def test_from_torch_tables_equal_the_live_dispatcher():
    reg = dispatchctl.from_torch()
    # Debian's 1.13.1 calls itself 1.13.0a0; the export names the release.
    assert re.match(r"\d+\.\d+", torch.__version__).group() == re.match(r"\d+\.\d+", reg.torch_version).group()
    live = live_operators()
    assert reg.operators() == live
    for name in live:
        expected = {}
        for line in torch._C._dispatch_dump_table(name).splitlines():
            key, text = LINE.match(line).groups()
            expected[key] = text
        ours = {row.key: ("fallthrough " if row.fallthrough else "") + f"{row.kernel} [{row.tag}]"
                for row in reg.table(name).values()}
        assert ours == expected, name


def test_has_kernel_equals_pytorch():
    reg = dispatchctl.from_torch()  # the cached export: no second interpreter runs
    asked = 0
    for name in live_operators():
        for key in KEYS:
            assert reg.has_kernel(name, key) == torch._C._dispatch_has_kernel_for_dispatch_key(name, key), (name, key)
            asked += 1
        for key in COMPUTED_KEYS:
            assert (reg.has_kernel(name, key, computed=True)
                    == torch._C._dispatch_has_computed_kernel_for_dispatch_key(name, key)), (name, key)
            asked += 1
    assert asked > 20_000
