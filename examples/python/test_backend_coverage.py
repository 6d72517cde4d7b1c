"""Op-coverage tests for an out-of-tree PrivateUse1 backend: copy this file into your suite.

It checks the backend's manifest (examples/privateuse1_backend.json, layered over
builtin:2.14.1) with dispatchctl's computed tables, no device needed:

    pytest examples/python/test_backend_coverage.py

Point it at your own manifest with NPU_MANIFEST=path/to/npu.json, or set
DISPATCHCTL_SOURCES (sources separated by ':') to test another registry.
A failing test prints explain's reasons: which rule filled the row, what a
call raises, and where a registration would fix it.
"""
import os
import pathlib

import pytest

pytest_plugins = ["dispatchctl.pytest_plugin"]

MANIFEST = os.environ.get("NPU_MANIFEST", str(pathlib.Path(__file__).resolve().parents[1] / "privateuse1_backend.json"))
# The registry under test (dispatchctl.pytest_plugin's dispatchctl_registry fixture reads it).
DISPATCHCTL_SOURCES = ["builtin:2.14.1", MANIFEST]

# The operators the backend implements itself: a C++ kernel at PrivateUse1 that a call runs.
BACKEND_KERNELS = ["aten::empty.memory_format", "aten::empty_strided", "aten::_copy_from", "aten::add.Tensor",
                   "aten::mm", "aten::linear"]
# The operators whose backward the backend implements.
AUTOGRAD_KERNELS = ["aten::mm", "aten::linear"]


@pytest.mark.parametrize("op", BACKEND_KERNELS)
def test_backend_kernel(assert_kernel, op):
    assert_kernel(op, "PrivateUse1")


@pytest.mark.parametrize("op", AUTOGRAD_KERNELS)
def test_autograd_kernel(assert_kernel, op):
    assert_kernel(op, "AutogradPrivateUse1")


def test_other_operators_reach_the_cpu_fallback(dispatchctl_registry):
    # Operators the backend does not implement run its PrivateUse1 fallback (a copy to CPU).
    row = dispatchctl_registry.table("aten::nansum")["PrivateUse1"]
    assert row.source == "backend_fallback", row.to_dict()
    assert row.outcome == "fallback"


def test_autocast_is_a_fallthrough(dispatchctl_registry):
    assert dispatchctl_registry.table("aten::mm")["AutocastPrivateUse1"].fallthrough
