"""dispatchctl: PyTorch dispatch tables computed exactly as PyTorch computes them.

The same C++ library as the ``dispatchctl`` command, in Python::

    import dispatchctl
    reg = dispatchctl.load("builtin:2.14.1", "npu.json")   # sources as -m takes them
    reg.table("aten::add.Tensor")["Meta"].kernel             # a computed row (a view)
    reg.has_kernel("aten::mm", "PrivateUse1", works=True)   # has-kernel, as a bool
    reg.explain("aten::mm", "PrivateUse1")                   # explain --format json, as dicts
    dispatchctl.from_torch()                                 # this interpreter's torch, exported

Results other than tables and has_kernel are the documented JSON (schemas/) as
dicts and lists, with the CLI's names. Bad input raises InputError (a
ValueError) with the CLI's one-line message.
"""
from __future__ import annotations

import collections.abc
import sys
from typing import Any, Dict, List, Optional, Sequence, Union

from ._dispatchctl import (
    DEFAULT_REGISTRY,
    InputError,
    Operator,
    Registry,
    Row,
    Table,
    builtin_registries,
    rules_text,
)
from . import _dispatchctl

__all__ = [
    "DEFAULT_REGISTRY", "InputError", "Operator", "Registry", "Row", "Table", "builtin_registries", "check",
    "diff", "from_torch", "load", "rules_text",
]

collections.abc.Mapping.register(Table)


def load(*sources: str, layering: str = "auto", ops: Optional[Sequence[str]] = None) -> Registry:
    """Load SOURCES layered in order, as ``-m`` does (none: the newest built-in registry).

    A source is ``builtin:VERSION``, a manifest file, ``python[:INTERPRETER]``,
    ``torchgen:PATH[?build-backends=LIST]`` or ``torchgen-backend:FILE``.
    layering: ``auto`` (a partial first manifest goes over its release's
    built-in registry), ``builtin`` or ``bare`` (``--layer``).
    ops: load only the operators these names or globs can match, as ``show OP``
    does (a built-in registry then reads only their records: fastest start).
    """
    return _dispatchctl.load(list(sources), layering, None if ops is None else list(ops))


def from_torch(python: Optional[str] = None, *, imports: Sequence[str] = ()) -> Registry:
    """The live registry of this interpreter's torch (or of PYTHON's).

    Runs the CLI's exporter through ``-m python:INTERPRETER`` with the same
    per-user cache, so a second call reads the cached export without starting
    Python. The export runs in a fresh interpreter (this one's executable), so
    what this process registered at run time (torch.library in a notebook) is
    not in it: name the modules that register it in imports (``?import=``),
    e.g. a backend's extension, imported before the export.
    """
    source = "python:" + (python or sys.executable)
    if imports:
        source += "?import=" + ",".join(imports)
    return _dispatchctl.load([source], "auto", None)


def _sources(side: Union[str, Sequence[str]]) -> List[str]:
    return [side] if isinstance(side, str) else list(side)


def diff(old: Union[str, Sequence[str]], new: Union[str, Sequence[str]], *, ops: Sequence[str] = (),
         keys: Sequence[str] = (), locations: bool = False, summary: bool = False) -> Dict[str, Any]:
    """``diff --old OLD --new NEW --format json``: what behaves differently between two registries.

    OLD and NEW are a source or a list of sources layered in order.
    """
    return _dispatchctl.diff(_sources(old), _sources(new), ops=list(ops), keys=list(keys), locations=locations,
                             summary=summary)


def check(*sources: str, require: Sequence[str] = (), ops: Sequence[str] = (), base: Sequence[str] = (),
          config: Optional[str] = None, layering: str = "auto", warnings_as_errors: bool = False,
          include_base: bool = False, show_existing: bool = False) -> Dict[str, Any]:
    """``check SOURCES --format json``: findings (rule, severity, operator, key, file, line ...).

    Reads no dispatchctl.json unless config names one (as ``--no-config`` /
    ``--config``). The result also holds ``notes`` and ``has_errors`` (the
    CLI exits 1 when it is true).
    """
    return _dispatchctl.check(list(sources), require=list(require), ops=list(ops), base=list(base), config=config,
                              layering=layering, warnings_as_errors=warnings_as_errors, include_base=include_base,
                              show_existing=show_existing)
