"""pytest fixtures for a backend's op-coverage tests (load with ``pytest_plugins``).

In a test module or the root conftest.py::

    pytest_plugins = ["dispatchctl.pytest_plugin"]
    DISPATCHCTL_SOURCES = ["builtin:2.14.1", "npu.json"]   # the registry under test

    def test_mm(assert_kernel):
        assert_kernel("aten::mm", "PrivateUse1")

The registry under test comes from, first found: the environment variable
DISPATCHCTL_SOURCES (sources separated by os.pathsep), the test module's
DISPATCHCTL_SOURCES list, the ``dispatchctl_sources`` ini option, else the
newest built-in registry. A failing assertion prints explain's reasons.
"""
from __future__ import annotations

import os
from typing import Any, Callable, Dict, List, Sequence, Tuple

import pytest

import dispatchctl

_loaded: Dict[Tuple[str, ...], dispatchctl.Registry] = {}


def pytest_addoption(parser: Any) -> None:
    parser.addini("dispatchctl_sources", "dispatchctl sources of the registry under test, layered in order",
                  type="linelist", default=[])


def registry_sources(request: Any) -> List[str]:
    """The sources of the registry under test for REQUEST (see the module's docstring)."""
    from_env = os.environ.get("DISPATCHCTL_SOURCES")
    if from_env:
        return [s for s in from_env.split(os.pathsep) if s]
    from_module = getattr(request.module, "DISPATCHCTL_SOURCES", None) if request.module else None
    if from_module:
        return list(from_module)
    from_ini = request.config.getini("dispatchctl_sources")
    return list(from_ini) if from_ini else [dispatchctl.DEFAULT_REGISTRY]


@pytest.fixture
def dispatchctl_registry(request: Any) -> dispatchctl.Registry:
    """The registry under test, loaded once per set of sources for the whole session."""
    sources = tuple(registry_sources(request))
    if sources not in _loaded:
        _loaded[sources] = dispatchctl.load(*sources)
    return _loaded[sources]


def explain_reasons(registry: dispatchctl.Registry, op: str, key: str) -> str:
    """explain OP --key KEY in a few lines: each row's verdict, the rules that decided it, notes, fixes."""
    lines: List[str] = []
    name = registry.operator(op).name  # explain takes OP as the CLI does: aten::mm means its overloads too
    for explanation in registry.explain(op, key)["explanations"]:
        if explanation["operator"] != name:
            continue
        for row in explanation["rows"]:
            verdict = row.get("verdict") or {}
            lines.append(f"{explanation['operator']} at {row['key']}: {verdict.get('tag', 'missing')}"
                         + (f" ({verdict['kernel']})" if verdict.get("kernel") else ""))
            for rule in row["rules"]:
                if rule["status"] not in ("not_applicable", "not_reached", "not_in_release"):
                    lines.append(f"  step {rule['step']} {rule['rule']}: {rule['status']}: {rule['reason']}")
            for note in row.get("notes", []):
                lines.append(f"  note: {note}")
            if row.get("error"):
                lines.append(f"  a call raises: {row['error'].splitlines()[0]}")
            for fix in row.get("fixes", []):
                lines.append(f"  fix: register a {fix['kind'].replace('_', ' ')} at {fix['register_at']}"
                             + (f" (the row becomes a {fix['result_tag']})" if fix.get("fills") else ""))
    return "\n".join(lines)


def assert_kernel(registry: dispatchctl.Registry, op: str, key: str, *, registered: bool = True,
                  works: bool = True) -> None:
    """Assert OP has a kernel registered at exactly KEY (registered) and that a call reaching
    KEY's row returns (works: has-kernel --works); on failure the message holds explain's reasons."""
    failed = []
    if registered and not registry.has_kernel(op, key):
        failed.append(registry.has_kernel_answer(op, key)["text"])
    if works and not registry.has_kernel(op, key, works=True):
        failed.append(registry.has_kernel_answer(op, key, works=True)["text"])
    if failed:
        pytest.fail("\n".join(failed) + "\n" + explain_reasons(registry, op, key), pytrace=False)


@pytest.fixture(name="assert_kernel")
def assert_kernel_bound(dispatchctl_registry: dispatchctl.Registry) -> Callable[..., None]:
    """assert_kernel(OP, KEY, registered=True, works=True) over the registry under test."""
    def check(op: str, key: str, *, registered: bool = True, works: bool = True) -> None:
        assert_kernel(dispatchctl_registry, op, key, registered=registered, works=works)
    return check


__all__: Sequence[str] = ["assert_kernel", "dispatchctl_registry", "explain_reasons", "registry_sources"]
