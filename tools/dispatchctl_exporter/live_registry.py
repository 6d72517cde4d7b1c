"""Reads the live registry: which operators there are, which of them to
export, and the dispatcher-wide backend fallbacks."""

import fnmatch
import os
import re

from dispatchctl_exporter.dump_parser import fallback_lines
from dispatchctl_exporter.messages import ExportError, show_progress

# Per-backend building blocks and enum placeholders: _dispatch_has_backend_fallback
# answers for their CPU instance (docs/dispatch-semantics.md §1.8), so they say nothing
# about a fallback of their own.
BUILDING_BLOCKS = {"Dense", "Quantized", "Sparse", "SparseCsr", "NestedTensor",
                   "AutogradFunctionality"}


def normalized_version(version):
    m = re.match(r"^(\d+)\.(\d+)(?:\.(\d+))?", version)
    if not m:
        raise ExportError("cannot read a release number from torch.__version__ = %r" % version)
    return "%s.%s.%s" % (m.group(1), m.group(2), m.group(3) or "0")


def all_op_names(C, problems):
    if hasattr(C, "_dispatch_get_all_op_names"):
        names = set(C._dispatch_get_all_op_names())
    elif hasattr(C, "_dispatch_get_registrations_for_dispatch_key"):
        names = set(C._dispatch_get_registrations_for_dispatch_key(""))
    else:
        raise ExportError("this torch has neither torch._C._dispatch_get_all_op_names nor "
                          "_dispatch_get_registrations_for_dispatch_key; torch >= 1.13 is needed")
    if hasattr(C, "_dispatch_find_dangling_impls"):
        for state in C._dispatch_find_dangling_impls():
            first = state.split("\n", 1)[0]
            if first.startswith("name: "):
                names.add(first[len("name: "):])
    else:
        problems.add("torch._C._dispatch_find_dangling_impls is missing; operators without a "
                     "schema may be left out")
    return sorted(names)


def select(names, namespaces, ops):
    if not namespaces and not ops:
        return names
    chosen = []
    for n in names:
        if n.split("::", 1)[0] in namespaces:
            chosen.append(n)
            continue
        base = n.split(".", 1)[0]
        if any(n == p or base == p or fnmatch.fnmatchcase(n, p) for p in ops):
            chosen.append(n)
    for p in ops:
        if not any(n == p or n.split(".", 1)[0] == p or fnmatch.fnmatchcase(n, p) for n in names):
            raise ExportError("--op %s: no such operator in the live registry" % p)
    for ns in namespaces:
        if not any(n.split("::", 1)[0] == ns for n in names):
            raise ExportError("--namespace %s: no operator of this namespace in the live registry" % ns)
    return chosen


def probe_fallbacks(C, problems):
    """The table of a fresh operator without kernels: every row it has is a backend
    fallback, so one table shows them all. None when no operator can be defined."""
    if not hasattr(C, "_dispatch_library"):
        return None
    ns = "_dispatchctl_export_probe_%d" % os.getpid()
    try:
        lib = C._dispatch_library("DEF", ns, "", "", 0)
        lib.def_("probe(Tensor x) -> Tensor")
        text = C._dispatch_dump_table(ns + "::probe")
        del lib
    except Exception as e:  # noqa: BLE001 - report, then read every table instead
        problems.add("could not define a probe operator to read fallbacks (%s); read them off "
                     "every operator's table" % e)
        return None
    return dict(fallback_lines(text))


def scan_fallbacks(C, names, problems, tables):
    """Fallback texts off the tables of every operator (`tables` holds those already
    dumped): the way when no probe operator can be defined (~0.5 s more)."""
    seen = {}
    for n, name in enumerate(names):
        if n % 200 == 0:
            show_progress("reading fallbacks: %d/%d operators" % (n, len(names)))
        table = tables[name] if name in tables else C._dispatch_dump_table(name)
        for key, text in fallback_lines(table):
            prev = seen.setdefault(key, text)
            if prev != text:
                problems.add("fallback of %s reads %r in one table and %r in another; kept the first"
                             % (key, prev, text))
    return seen


def read_fallbacks(C, names, problems, tables):
    """The backend fallbacks, checked against _dispatch_has_backend_fallback both ways."""
    seen = probe_fallbacks(C, problems)
    if seen is None:
        seen = scan_fallbacks(C, names, problems, tables)
    has_fallback = getattr(C, "_dispatch_has_backend_fallback", None)
    if has_fallback is None:
        problems.add("torch._C._dispatch_has_backend_fallback is missing; fallbacks that no "
                     "operator's table shows are left out")
        return seen
    for member_name, member in getattr(C, "DispatchKey").__members__.items():
        if member_name in BUILDING_BLOCKS or member_name.startswith(("StartOf", "EndOf")):
            continue
        try:
            claimed = has_fallback(member)
        except Exception:  # noqa: BLE001 - alias keys etc. may be refused
            continue
        if claimed and member_name not in seen:
            problems.add("_dispatch_has_backend_fallback(%s) is true but no table shows its "
                         "kernel; the fallback is left out" % member_name)
    for k in seen:
        member = C.DispatchKey.__members__.get(k)
        if member is not None and not has_fallback(member):
            problems.add("tables show a backend fallback for %s but _dispatch_has_backend_fallback "
                         "says there is none" % k)
    return seen
