#!/usr/bin/env python3
"""Export the live PyTorch dispatcher registry as a dispatchctl manifest.

Runs in any Python that has torch >= 1.13 and writes a manifest
(shared/design/manifest-format.md, "dispatchctl_manifest": 1) holding every
operator the dispatcher knows (custom namespaces included), every kernel with
its debug string in registration order (inactive ones too), fallthrough flags,
inferred signatures, boxed/unboxed flags, the alias-analysis kind, the
dispatcher-wide backend fallbacks, the release profile (what this torch reports
about its keys, plus behaviour probed with throwaway operators in a scratch
namespace; fields not observed are listed in its "inferred") and, for
`dispatchctl verify`, every exported operator's real _dispatch_dump_table and
_dispatch_dump text ("recorded").

Only public and torch._C._dispatch_* functions are used:
  * operator list: _dispatch_get_all_op_names (2.x) or
    _dispatch_get_registrations_for_dispatch_key("") (1.13), plus
    _dispatch_find_dangling_impls;
  * per operator: _dispatch_dump (OperatorEntry::dumpState), parsed exactly as
    dispatchctl's `import torch-dump` parses it;
  * fallbacks: no API lists them, so they are read off the `[backend fallback]`
    lines of the _dispatch_dump_table of a fresh operator without kernels (of
    every operator where none can be defined) and cross-checked with
    _dispatch_has_backend_fallback.

    python3 tools/dispatchctl-export.py -o my_torch.json
    python3 tools/dispatchctl-export.py --import my_ext --namespace my_ext -o my_ext.json
    dispatchctl show 'my_ext::*' -m my_torch.json

Exit status: 0 complete, 1 written but something could not be read (see the
warnings on stderr), 2 usage error or nothing written.
"""

import argparse
import fnmatch
import importlib
import json
import os
import re
import sys
import tempfile
import warnings

FORMAT_VERSION = 1
ALIAS_KINDS = ("FROM_SCHEMA", "CONSERVATIVE", "PURE_FUNCTION")
# Per-backend building blocks and enum placeholders: _dispatch_has_backend_fallback
# answers for their CPU instance (dispatch-semantics.md §1.8), so they say nothing
# about a fallback of their own.
BUILDING_BLOCKS = {"Dense", "Quantized", "Sparse", "SparseCsr", "NestedTensor",
                   "AutogradFunctionality"}


class ExportError(Exception):
    """Something that makes the export impossible (exit 2)."""


class Problems:
    """What could not be read; printed on stderr, makes the exit status 1."""

    def __init__(self):
        self.items = []

    def add(self, text):
        self.items.append(text)
        _status_clear()
        print("dispatchctl-export: warning: " + text, file=sys.stderr)


# --------------------------------------------------------------------------
# progress (only on a terminal)

_progress_shown = False


def _status(text):
    global _progress_shown
    if sys.stderr.isatty():
        sys.stderr.write("\r\033[K" + text)
        sys.stderr.flush()
        _progress_shown = True


def _status_clear():
    global _progress_shown
    if _progress_shown:
        sys.stderr.write("\r\033[K")
        sys.stderr.flush()
        _progress_shown = False


# --------------------------------------------------------------------------
# parsing _dispatch_dump (mirrors lib/registry/torch_dump.cpp)

class ParseError(Exception):
    pass


def parse_kernel_line(line):
    """KEY[alias][ (inactive)]: DEBUG :: SIGNATURE [ fallthrough boxed unboxed ]"""
    colon = line.find(": ")
    if colon < 0:
        raise ParseError("expected a kernel line 'KEY: DEBUG :: SIGNATURE [ FLAGS ]'")
    key_part, rest = line[:colon], line[colon + 2:]
    inactive = False
    if len(key_part) > len(" (inactive)") and key_part.endswith(" (inactive)"):
        key_part = key_part[: -len(" (inactive)")]
        inactive = True
    alias = False
    if len(key_part) > len("[alias]") and key_part.endswith("[alias]"):
        key_part = key_part[: -len("[alias]")]
        alias = True
    if not key_part or " " in key_part:
        raise ParseError("'%s' is not a dispatch key name" % key_part)
    flags_at = rest.rfind(" [ ")
    if flags_at < 0 or not rest.endswith("]"):
        raise ParseError("kernel line lacks its flags, e.g. '[ boxed unboxed ]'")
    flags = rest[flags_at + 3: -1].split()
    head = rest[:flags_at]
    sig_at = head.rfind(" :: ")
    if sig_at < 0:
        raise ParseError("kernel line lacks ' :: SIGNATURE'")
    unknown = [f for f in flags if f not in ("fallthrough", "boxed", "unboxed")]
    if unknown:
        raise ParseError("unknown kernel flag '%s'" % unknown[0])
    signature = head[sig_at + 4:]
    return {
        "key": key_part,
        "alias": alias,
        "inactive": inactive,
        "kernel": head[:sig_at],
        "signature": None if signature == "(none)" else signature,
        "fallthrough": "fallthrough" in flags,
        "boxed": "boxed" in flags,
        "unboxed": "unboxed" in flags,
    }


def parse_state(name, text):
    """One _dispatch_dump text -> a manifest operator entry."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if not lines or lines[0] != "name: " + name:
        raise ParseError("expected 'name: %s' as the first line" % name)
    entry = {"name": name}
    i = 1
    if i >= len(lines) or not lines[i].startswith("schema: "):
        raise ParseError("expected 'schema: …' after the name line")
    schema = lines[i][len("schema: "):]
    i += 1
    if schema != "(none)":
        entry["schema"] = schema
        if i < len(lines) and lines[i].startswith("debug: "):
            entry["debug"] = lines[i][len("debug: "):]
            i += 1
        if i >= len(lines) or not lines[i].startswith("alias analysis kind: "):
            raise ParseError("expected 'alias analysis kind: …' after the schema")
        kind = lines[i][len("alias analysis kind: "):]
        i += 1
        explicit = True
        if len(kind) > len(" (default)") and kind.endswith(" (default)"):
            kind = kind[: -len(" (default)")]
            explicit = False
        if kind not in ALIAS_KINDS:
            raise ParseError("unknown alias analysis kind '%s'" % kind)
        if not explicit and kind != "CONSERVATIVE":
            raise ParseError("default alias analysis kind '%s' is not CONSERVATIVE; "
                             "a manifest cannot express it" % kind)
        if explicit:
            entry["alias_analysis"] = kind
    groups = []  # [(key, [kernel, ...] newest first)]
    for line in lines[i:]:
        if line == "":
            continue
        k = parse_kernel_line(line)
        if k["inactive"]:
            if not groups or groups[-1][0] != k["key"]:
                raise ParseError("'(inactive)' kernel does not follow an active kernel of the same key")
            groups[-1][1].append(k)
        else:
            if any(g[0] == k["key"] for g in groups):
                raise ParseError("a second active kernel for %s" % k["key"])
            groups.append((k["key"], [k]))
    kernels = []
    for _key, newest_first in groups:
        for k in reversed(newest_first):  # the manifest wants registration order
            out = {"key": k["key"], "kernel": k["kernel"]}
            if k["fallthrough"]:
                out["fallthrough"] = True
            if k["signature"] is not None:
                out["signature"] = k["signature"]
            if not k["boxed"]:
                out["boxed"] = False
            if k["unboxed"] != (not k["fallthrough"]):
                out["unboxed"] = k["unboxed"]
            kernels.append(out)
    if kernels:
        entry["kernels"] = kernels
    return entry


# A table's `KEY: TEXT [backend fallback]` rows, found in one pass over the
# whole table (a line-by-line loop cost ~0.5 s over all tables).
FALLBACK_LINE = re.compile(r"^([A-Za-z0-9_]+): (.*) \[backend fallback\]$", re.M)


def fallback_lines(table_text):
    """(key, text) of every `[backend fallback]` row of a _dispatch_dump_table."""
    return FALLBACK_LINE.findall(table_text)


# --------------------------------------------------------------------------
# reading the live registry

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
            _status("reading fallbacks: %d/%d operators" % (n, len(names)))
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


# --------------------------------------------------------------------------
# the release profile: what this torch reports about its own keys
# (README "Release profiles"); every API is feature-detected.

def _keyset_names(C, keyset):
    text = C._dispatch_keyset_to_string(keyset) if hasattr(C, "_dispatch_keyset_to_string") else str(keyset)
    m = re.match(r"^DispatchKeySet\((.*)\)$", text.strip())
    if not m:
        raise ExportError("cannot read a key set from %r" % text)
    return [n.strip() for n in m.group(1).split(",") if n.strip()]


def _enum(C):
    DK = C.DispatchKey
    by_value = {}
    for name, member in DK.__members__.items():
        by_value.setdefault(int(member), []).append(name)
    last = max(by_value)  # the last alias key: BC names reuse lower values
    if not hasattr(C, "_dispatch_key_name"):
        raise ExportError("torch._C._dispatch_key_name is missing; cannot read the key enum")
    return [{"value": v, "name": C._dispatch_key_name(DK(v)), "python_members": by_value.get(v, [])}
            for v in range(last + 1)]


def _runtime_key_order(C, enum):
    DK = C.DispatchKey
    if hasattr(C, "_dispatch_keyset_full"):
        return ["Undefined"] + _keyset_names(C, C._dispatch_keyset_full())
    if hasattr(C, "_dispatch_keyset_full_after"):
        # FULL_AFTER(k) always adds PythonDispatcher (§1.8); after it, nothing is left out.
        value = next((e["value"] for e in enum if e["name"] == "PythonDispatcher"), None)
        if value is not None:
            return ["Undefined"] + _keyset_names(C, C._dispatch_keyset_full_after(DK(value)))
    raise ExportError("this torch reports no full key set (_dispatch_keyset_full)")


def _silenced_stderr(fn):
    """Runs fn with fd 2 captured (C++ warnings bypass Python); returns (result, text)."""
    sys.stderr.flush()
    saved = os.dup(2)
    with tempfile.TemporaryFile() as tmp:
        os.dup2(tmp.fileno(), 2)
        try:
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                result = fn()
        finally:
            sys.stderr.flush()
            os.dup2(saved, 2)
            os.close(saved)
        tmp.seek(0)
        text = tmp.read().decode("utf-8", "replace") + "".join(str(w.message) for w in caught)
    return result, text


def _probe_behaviour(C, torch, profile, inferred):
    """Throwaway operators in a scratch namespace, to see what this build does."""
    probes = {}
    if not hasattr(C, "_dispatch_library"):
        inferred.extend(["/override_warning_once", "/meta_fallback_error", "/schema_type_variables_in_any_namespace"])
        return probes
    ns = "_dispatchctl_probe_%d" % os.getpid()
    keep = []
    try:
        lib = C._dispatch_library("DEF", ns, "", "", 0)
        keep.append(lib)
        for op in ("meta_twice", "cpu_twice", "cpu_only"):
            lib.def_("%s(Tensor x) -> Tensor" % op)

        def override(op, key):
            for _ in range(2):
                impl = C._dispatch_library("IMPL", ns, key, "", 0)
                keep.append(impl)
                impl.impl_t_t(op, key)
        marker = "Overriding a previously registered kernel"
        _, meta_text = _silenced_stderr(lambda: override("meta_twice", "Meta"))
        _, cpu_text = _silenced_stderr(lambda: [override("cpu_twice", "CPU"), override("cpu_only", "CPU")])
        meta_n, cpu_n = meta_text.count(marker), cpu_text.count(marker)
        probes["override_warnings"] = {"Meta": meta_n, "CPU": cpu_n}
        if cpu_n >= 2:
            # Warned every time: every other backend key can be asked too.
            profile["override_warning_once"] = False
            parseable = set(profile.get("python_parseable_names", []))
            candidates = sorted({k for keys in profile["backend_keyset_from_autograd"].values() for k in keys
                                 if k in parseable and k not in ("CPU", "Meta")})
            silent = ["Meta"] if meta_n == 0 else []
            for n, key in enumerate(candidates):
                name = "silent_%d" % n
                lib.def_("%s(Tensor x) -> Tensor" % name)
                _, text = _silenced_stderr(lambda: override(name, key))
                if marker not in text:
                    silent.append(key)
            profile["override_warning_silent_keys"] = silent
        elif cpu_n == 1:
            # Once per process: after the first warning no other key can be told apart.
            profile["override_warning_once"] = True
            profile["override_warning_silent_keys"] = ["Meta"] if meta_n == 0 else []
            inferred.append("/override_warning_silent_keys")
        else:
            inferred.extend(["/override_warning_once", "/override_warning_silent_keys"])  # printed before we looked
        # The error a call gets at a key without a kernel: the Meta fallback's, or the missing row.
        op = getattr(getattr(torch.ops, ns), "cpu_only")
        try:
            op(torch.empty(1, device="meta"))
            probes["meta_call"] = "returned"
        except Exception as e:  # noqa: BLE001 - the text is what we want
            text = str(e)
            qualified = ns + "::cpu_only"
            probes["meta_call_error"] = text.replace(qualified, "{op}")  # no pid: the same torch, the same export
            if hasattr(C, "_dispatch_has_backend_fallback") and C._dispatch_has_backend_fallback(C.DispatchKey.Meta):
                profile["meta_fallback_error"] = text.split("\n")[0].replace(qualified, "{op}")
            else:
                profile["meta_fallback_error"] = ""
        # A lower-case type variable in a custom op's schema: 1.13 took it, 2.1+ refuses it outside aten::/prim::.
        try:
            lib.def_("typevars(t x) -> t")
            profile["schema_type_variables_in_any_namespace"] = True
        except Exception:  # noqa: BLE001 - refused: only aten::/prim:: schemas may use them
            profile["schema_type_variables_in_any_namespace"] = False
        meta_only = getattr(getattr(torch.ops, ns), "meta_twice")
        try:
            meta_only(torch.ones(1))
        except Exception as e:  # noqa: BLE001
            probes["missing_row_error"] = str(e).replace(ns + "::meta_twice", "{op}")
    except Exception as e:  # noqa: BLE001 - a probe that cannot run leaves the field inferred
        probes["failed"] = "%s: %s" % (type(e).__name__, e)
        inferred.extend(["/override_warning_once", "/meta_fallback_error", "/schema_type_variables_in_any_namespace"])
    finally:
        del keep[:]
    return probes


def _preset_makers(torch):
    """How to make a tensor of each `trace` preset; a build that cannot make one raises."""
    return {
        "cpu": lambda: torch.ones(1),
        "meta": lambda: torch.empty(1, device="meta"),
        "cuda": lambda: torch.ones(1, device="cuda"),
        "xla": lambda: torch.ones(1, device="xla"),
        "mps": lambda: torch.ones(1, device="mps"),
        "privateuse1": lambda: torch.ones(1, device="privateuseone"),
        "sparse_cpu": lambda: torch.ones(1).to_sparse(),
        "sparse_csr_cpu": lambda: torch.ones(1, 1).to_sparse_csr(),
        "quantized_cpu": lambda: torch.quantize_per_tensor(torch.ones(1), 1.0, 0, torch.quint8),
        "mkldnn_cpu": lambda: torch.ones(1).to_mkldnn(),
        "nested_cpu": lambda: torch.nested.nested_tensor([torch.ones(1)]),
    }


def _modifier_makers(torch):
    """Tensors with one modifier each, to read the key it adds off a CPU tensor's set."""
    def neg_view():
        if hasattr(torch, "_neg_view"):
            return torch._neg_view(torch.ones(1))
        return torch.ones(1, dtype=torch.complex64).conj().imag  # imag of a conj view is a neg view
    return {
        "conj": lambda: torch.ones(1, dtype=torch.complex64).conj(),
        "neg": neg_view,
        "zerotensor": lambda: torch._efficientzerotensor(1),
        "requires_grad": lambda: torch.ones(1, requires_grad=True),
    }


def _observed_keys(C, make):
    """torch._C._dispatch_keys of a fresh tensor, or None when this build cannot make it."""
    try:
        tensor, _ = _silenced_stderr(make)  # beta/prototype warnings (CSR, nested) are not ours
        return _keyset_names(C, C._dispatch_keys(tensor))
    except Exception:  # noqa: BLE001 - this build cannot make it
        return None


def _tensor_presets(C, torch, names, autocast_of, autograd_other_backends):
    device_backend = {"cuda": "CUDA", "xla": "XLA", "mps": "MPS", "privateuse1": "PrivateUse1"}
    presets = {}
    for name, make in _preset_makers(torch).items():
        keys = _observed_keys(C, make)
        if keys is not None:
            presets[name] = {"keys": keys, "observed": True}
            continue
        backend = device_backend.get(name)
        if backend is None or backend not in names:
            continue
        # c10's rule (dispatch-semantics.md §5.3): backend, ADInplaceOrView, its autograd key, its Autocast key.
        autograd = "AutogradOther" if backend in autograd_other_backends else "Autograd" + backend
        keys = [backend, "ADInplaceOrView", autograd] + ([autocast_of[backend]] if backend in autocast_of else [])
        presets[name] = {"keys": [k for k in keys if k in names], "observed": False}
    return presets


def _tensor_modifiers(C, torch, profile, inferred, probes):
    """The key each `trace` modifier adds, read off real tensors; c10's names where a build cannot make one."""
    defaults = {"conj": "Conjugate", "neg": "Negative", "zerotensor": "ZeroTensor"}
    base = _observed_keys(C, lambda: torch.ones(1))
    modifiers, seen = {}, {}
    for name, make in _modifier_makers(torch).items():
        keys = _observed_keys(C, make) if base is not None else None
        added = None if keys is None else [k for k in keys if k not in base]
        seen[name] = added
        if name == "requires_grad":
            continue  # adds no key (c10: requires_grad is not part of the key set); recorded in probes
        if added is not None and len(added) == 1:
            modifiers[name] = added[0]
        else:
            modifiers[name] = defaults[name]
            inferred.append("/tensor_modifier_keys/" + name)
    probes["tensor_modifiers_added_keys"] = seen

    def inference_tensor():
        with torch.inference_mode():
            return torch.ones(1)
    inference = _observed_keys(C, inference_tensor) if hasattr(torch, "inference_mode") else None
    probes["inference_tensor_keys"] = inference
    profile["tensor_modifier_keys"] = modifiers


MARKER = "dispatchctl-probe-reached:"


def _marker_kernel(key):
    """A Python kernel that only says it was reached: no tensor work under odd TLS."""
    def kernel(*args, **kwargs):
        raise RuntimeError(MARKER + key)
    return kernel


def _outcome(call):
    """(which marker kernel a call reached or None, the text of what it raised)."""
    try:
        _silenced_stderr(call)
        return None, "returned"
    except Exception as e:  # noqa: BLE001 - the outcome is what we want
        text = str(e)
        m = re.search(re.escape(MARKER) + r"(\w+)", text)
        return (m.group(1) if m else None), text


def _meta_tls_include(C):
    """(enter, leave) putting Meta in the thread-local included set; None if this torch cannot."""
    if hasattr(C, "_set_meta_in_tls_dispatch_include"):
        return (lambda: C._set_meta_in_tls_dispatch_include(True),
                lambda: C._set_meta_in_tls_dispatch_include(False))
    if hasattr(C, "_add_meta_to_tls_dispatch_include"):
        return C._add_meta_to_tls_dispatch_include, C._remove_meta_from_tls_dispatch_include
    return None


def _row(C, qualified, key):
    for line in C._dispatch_dump_table(qualified).split("\n"):
        if line.startswith(key + ": "):
            return line[len(key) + 2:]
    return ""


def _probe_fallthrough_mask(C, torch, lib, ns, probes):
    """dispatch-semantics.md §5.1 step 3: is the per-backend fallthrough mask the one of
    the highest backend of the tensors' set, or of the set after TLS? Only a TLS include
    can add a backend, so: a CPU tensor with Meta in TLS included, and an operator whose
    AutogradCPU row is a fallthrough and whose AutogradMeta row a kernel. The CPU mask
    drops AutogradFunctionality (the Meta kernel runs); the Meta mask keeps it (the
    AutogradMeta kernel runs). Returns True (after TLS), False (before) or None."""
    op_name = "mask_probe"
    lib.define(op_name + "(Tensor x) -> Tensor")
    for key in ("CPU", "Meta", "AutogradMeta"):
        lib.impl(op_name, _marker_kernel(key), key)
    qualified = ns + "::" + op_name
    fallthrough = getattr(torch.library, "fallthrough_kernel", None)
    if not _row(C, qualified, "AutogradCPU").startswith("fallthrough ") and fallthrough is not None:
        lib.impl(op_name, fallthrough, "AutogradCPU")  # releases whose autograd fallback is a kernel
    if not _row(C, qualified, "AutogradCPU").startswith("fallthrough "):
        probes["fallthrough_mask"] = "not run: no way to make AutogradCPU a fallthrough row"
        return None
    tls = _meta_tls_include(C)
    if tls is None:
        probes["fallthrough_mask"] = "not run: no way to put Meta in the TLS included set"
        return None
    op = getattr(getattr(torch.ops, ns), op_name)
    x = torch.ones(1)
    tls[0]()
    try:
        reached, text = _outcome(lambda: op(x))
    finally:
        tls[1]()
    probes["fallthrough_mask"] = {"call": "CPU tensor, Meta in TLS included", "reached": reached or text}
    return {"AutogradMeta": True, "Meta": False}.get(reached)


def _probe_ambiguous_autogradother(C, torch, lib, ns, profile, probes):
    """The INTERNAL ASSERT of an ambiguous AutogradOther row, reached with a real tensor
    whose key set has AutogradOther: (file:line as printed, the inference hint) or None."""
    parseable = set(profile.get("python_parseable_names", []))
    backend = next((k for k in profile["autogradother_backends"] if k in parseable), None)
    makers = _preset_makers(torch)
    tensor = None
    for name, preset in profile["tensor_presets"].items():
        if preset["observed"] and "AutogradOther" in preset["keys"]:
            tensor, _ = _silenced_stderr(makers[name])
            probes["ambiguous_autogradother_tensor"] = name
            break
    if backend is None or tensor is None:
        probes["ambiguous_autogradother"] = "not run: no %s" % ("autogradother backend key"
                                                                if backend is None else "tensor with AutogradOther")
        return None
    op_name = "ambiguous_probe"
    lib.define(op_name + "(Tensor x) -> Tensor")
    for key in ("CompositeImplicitAutograd", backend):
        lib.impl(op_name, _marker_kernel(key), key)
    qualified = ns + "::" + op_name
    _, text = _outcome(lambda: getattr(getattr(torch.ops, ns), op_name)(tensor))
    m = re.match(r"^0 INTERNAL ASSERT FAILED at (.*?), please report a bug to PyTorch\. (.*?)\n(.*?)\nCanonical state\n",
                 text, re.S)
    probes["ambiguous_autogradother"] = text.replace(qualified, "{op}").split("\nCanonical state\n")[0]
    if not m or qualified not in m.group(2):
        return None
    return m.group(1), m.group(3)


def _probe_autograd_fallback(C, torch, lib, ns, probes):
    """What the Autograd fallback does for an operator with only a CPU kernel when an input
    requires grad: the backward warning's text ("{op}" = operator), "" when the output does
    not require grad (a fallthrough: nothing to warn about), or None when unclear."""
    op_name = "autograd_fallback_probe"
    lib.define(op_name + "(Tensor x) -> Tensor")
    lib.impl(op_name, lambda x: x.detach().clone(), "CPU")  # detach: the kernel adds no history itself
    qualified = ns + "::" + op_name
    with torch.enable_grad():
        x = torch.ones(2, requires_grad=True)
        y = getattr(getattr(torch.ops, ns), op_name)(x)
        if not y.requires_grad:
            probes["autograd_fallback"] = {"output_requires_grad": False}
            return ""

        def backward():
            y.sum().backward()
        try:
            _, text = _silenced_stderr(backward)
        except Exception as e:  # noqa: BLE001 - the error mode raises: not a warning
            probes["autograd_fallback"] = {"output_requires_grad": True,
                                           "backward_raises": str(e).replace(qualified, "{op}")}
            return None
    line = next((l for l in text.split("\n") if qualified in l), "")
    at = line.find(qualified)
    template = line[at:].replace(qualified, "{op}") if at >= 0 else ""
    probes["autograd_fallback"] = {"output_requires_grad": True, "backward_warns": template or text}
    return template or None


def _probe_fallthrough_at_undefined(C, torch, lib, ns, probes):
    """dispatch-semantics.md §9.1: a per-operator fallthrough kernel that reaches the
    Undefined row (no bit can mask it) is called and asserts. A CompositeImplicitAutograd
    fallthrough fills every row a CPU tensor reaches and Undefined, so the call ends there.
    Needs a Python way to register a per-operator fallthrough (torch.library.fallthrough_kernel).
    Returns where the assert fires as printed, or None."""
    fallthrough = getattr(torch.library, "fallthrough_kernel", None)
    if fallthrough is None:
        probes["fallthrough_at_undefined"] = "not run: no torch.library.fallthrough_kernel"
        return None
    op_name = "fallthrough_probe"
    lib.define(op_name + "(Tensor x) -> Tensor")
    lib.impl(op_name, fallthrough, "CompositeImplicitAutograd")
    _, text = _outcome(lambda: getattr(getattr(torch.ops, ns), op_name)(torch.ones(1)))
    probes["fallthrough_at_undefined"] = text.split("\n")[0]
    m = re.match(r"^0 INTERNAL ASSERT FAILED at (.*?), please report a bug to PyTorch\. fallthrough_kernel was executed",
                 text)
    return m.group(1) if m else None


def _probe_calls(C, torch, profile, inferred, probes):
    """Calls of throwaway operators with Python kernels in a scratch namespace
    (torch.library): the behaviour that decides what `trace` says."""
    library = getattr(getattr(torch, "library", None), "Library", None)
    names = {e["name"] for e in profile["enum"]}
    fields = ["/fallthrough_mask_after_tls", "/ambiguous_assert_at", "/ambiguous_autogradother_hint",
              "/autograd_fallback_backward_warning", "/fallthrough_assert_at"]
    if library is None or not {"AutogradMeta", "AutogradOther", "Meta"} <= names:
        probes["calls"] = "not run: no torch.library.Library or no AutogradMeta/AutogradOther/Meta key"
        return inferred.extend(fields)
    ns = "_dispatchctl_calls_%d" % os.getpid()
    lib = library(ns, "DEF")
    probed = {}
    for field, probe in (("fallthrough_mask_after_tls", lambda: _probe_fallthrough_mask(C, torch, lib, ns, probes)),
                         ("ambiguous", lambda: _probe_ambiguous_autogradother(C, torch, lib, ns, profile, probes)),
                         ("autograd_fallback_backward_warning", lambda: _probe_autograd_fallback(C, torch, lib, ns,
                                                                                                probes)),
                         ("fallthrough_assert_at", lambda: _probe_fallthrough_at_undefined(C, torch, lib, ns, probes))):
        try:
            probed[field] = probe()
        except Exception as e:  # noqa: BLE001 - a probe that cannot run leaves its field inferred
            probes[field + "_failed"] = "%s: %s" % (type(e).__name__, e)
            probed[field] = None
    del lib
    if probed["fallthrough_mask_after_tls"] is not None:
        profile["fallthrough_mask_after_tls"] = probed["fallthrough_mask_after_tls"]
        fields.remove("/fallthrough_mask_after_tls")
    if probed["ambiguous"] is not None:
        profile["ambiguous_assert_at"], profile["ambiguous_autogradother_hint"] = probed["ambiguous"]
        fields.remove("/ambiguous_assert_at")
        fields.remove("/ambiguous_autogradother_hint")
    if probed["fallthrough_assert_at"] is not None:
        profile["fallthrough_assert_at"] = probed["fallthrough_assert_at"]
        fields.remove("/fallthrough_assert_at")
    if probed["autograd_fallback_backward_warning"] is not None:
        profile["autograd_fallback_backward_warning"] = probed["autograd_fallback_backward_warning"]
        fields.remove("/autograd_fallback_backward_warning")
    inferred.extend(fields)


def release_profile(C, torch, version):
    """keys.json's fields plus the behaviour probed here; `inferred` lists what was not observed."""
    DK = C.DispatchKey
    inferred = []
    enum = _enum(C)
    value_of = {}
    for e in enum:
        value_of.setdefault(e["name"], e["value"])
    order = _runtime_key_order(C, enum)
    runtime = set(order)
    last_runtime = max(value_of[n] for n in order)
    aliases = [e["name"] for e in enum if e["value"] > last_runtime]
    expansion = {a: [k for k in order if k != "Undefined" and
                     C._dispatch_is_included_in_alias(DK(value_of[k]), DK(value_of[a]))] for a in aliases}
    autograd_keys = expansion.get("Autograd", [])
    backend_sets = {k: _keyset_names(C, C._dispatch_get_backend_keyset_from_autograd(DK(value_of[k])))
                    for k in autograd_keys}
    profile = {"torch_version": version, "reference_build": torch.__version__,
               "num_backends": C._dispatch_num_backends() if hasattr(C, "_dispatch_num_backends")
               else len([e for e in enum if "StartOfDenseBackends" in e["python_members"]]),
               "enum": enum, "runtime_key_order": order, "alias_expansion": expansion,
               "backend_keyset_from_autograd": backend_sets,
               "autogradother_backends": backend_sets.get("AutogradOther", [])}
    if hasattr(C, "_dispatch_has_backend_fallback"):
        profile["has_backend_fallback_api"] = {k: bool(C._dispatch_has_backend_fallback(DK(value_of[k])))
                                               for k in order}
    if hasattr(C, "_dispatch_key_parse"):
        parseable = []
        for e in enum:
            try:
                C._dispatch_key_parse(e["name"])
                parseable.append(e["name"])
            except Exception:  # noqa: BLE001 - refused: not parseable
                pass
        profile["python_parseable_names"] = sorted(set(parseable), key=lambda n: value_of[n])
    names = set(value_of)
    # c10's getAutogradKeyFromBackend maps these to AutogradOther; no API reports it.
    profile["backends_with_autograd_other"] = [b for b in ("HIP", "VE") if b in names]
    inferred.append("/backends_with_autograd_other")
    cpu_keys = []
    try:
        cpu_keys = _keyset_names(C, C._dispatch_keys(torch.ones(1)))
    except Exception:  # noqa: BLE001
        pass
    autocast_of = {k[len("Autocast"):]: k for k in sorted(names, key=value_of.get)  # enum order, not a set's
                   if k.startswith("Autocast") and k[len("Autocast"):] in runtime}
    for k in cpu_keys:
        if k.startswith("Autocast"):
            autocast_of["CPU"] = k
    profile["autocast_key_of_backend"] = autocast_of
    inferred.append("/autocast_key_of_backend")
    if hasattr(C, "_dispatch_tls_local_include_set"):
        profile["default_tls_included"] = _keyset_names(C, C._dispatch_tls_local_include_set())
        profile["default_tls_excluded"] = _keyset_names(C, C._dispatch_tls_local_exclude_set())
        with torch.inference_mode():
            inside = _keyset_names(C, C._dispatch_tls_local_include_set())
        profile["inference_mode_tls_unincluded"] = [k for k in profile["default_tls_included"] if k not in inside]
    # c10's constants (autograd_dispatch_keyset_with_ADInplaceOrView); the TLS print drops
    # AutogradFunctionality (no backend bit), so these are not read back.
    profile["inference_mode_tls_excluded"] = ["AutogradFunctionality", "AutogradOther", "AutogradNestedTensor"]
    profile["inference_tensor_removed"] = ["ADInplaceOrView", "AutogradFunctionality", "AutogradOther",
                                           "AutogradNestedTensor"]
    inferred.extend(["/inference_mode_tls_excluded", "/inference_tensor_removed"])
    profile["tensor_presets"] = _tensor_presets(C, torch, names, autocast_of,
                                                profile["backends_with_autograd_other"])
    probes = _probe_behaviour(C, torch, profile, inferred)
    _tensor_modifiers(C, torch, profile, inferred, probes)
    _probe_calls(C, torch, profile, inferred, probes)
    profile["probes"] = probes
    profile["inferred"] = inferred
    return profile


def export(args, problems):
    if args.imports and os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())  # like `python -m`: modules of the current folder
    for module in args.imports:
        _status("importing %s" % module)
        try:
            importlib.import_module(module)
        except Exception as e:  # noqa: BLE001
            raise ExportError("--import %s failed: %s: %s" % (module, type(e).__name__, e))
    try:
        import torch
    except Exception as e:  # noqa: BLE001
        raise ExportError("cannot import torch (%s: %s); run this script with the Python that has "
                          "your PyTorch" % (type(e).__name__, e))
    C = torch._C
    if not hasattr(C, "_dispatch_dump"):
        raise ExportError("torch._C._dispatch_dump is missing; torch >= 1.13 is needed")
    version = normalized_version(torch.__version__)

    names = all_op_names(C, problems)
    chosen = select(names, set(args.namespaces), args.ops)

    # One pass over the operators; the tables (for `verify`) are dumped here, before the
    # profile's probes define operators of their own.
    operators, states, tables = [], {}, {}
    dump, dump_table = C._dispatch_dump, C._dispatch_dump_table
    for n, name in enumerate(chosen):
        if n % 100 == 0:
            _status("reading operators: %d/%d" % (n, len(chosen)))
        text = dump(name)
        if not text:
            problems.add("%s: _dispatch_dump returned nothing (operator gone?); left out" % name)
            continue
        states[name] = text
        if args.recorded:
            tables[name] = dump_table(name)
        try:
            operators.append(parse_state(name, text))
        except ParseError as e:
            problems.add("%s: cannot read its _dispatch_dump (%s); left out. The text was:\n%s"
                         % (name, e, text))

    fallbacks = []
    if args.fallbacks:
        for key, text in sorted(read_fallbacks(C, names, problems, tables).items()):
            entry = {"key": key}
            if text.startswith("fallthrough "):
                entry["kernel"] = text[len("fallthrough "):]
                entry["fallthrough"] = True
            else:
                entry["kernel"] = text
            fallbacks.append(entry)
    _status_clear()

    manifest = {"dispatchctl_manifest": FORMAT_VERSION, "torch_version": version}
    profile_apis = ["_dispatch_key_name", "_dispatch_is_included_in_alias",
                    "_dispatch_get_backend_keyset_from_autograd"]
    lacking = [a for a in profile_apis if not hasattr(C, a)]
    if not (hasattr(C, "_dispatch_keyset_full") or hasattr(C, "_dispatch_keyset_full_after")):
        lacking.append("_dispatch_keyset_full")
    if args.profile and lacking:
        _status_clear()
        print("dispatchctl-export: note: no release profile recorded: torch._C lacks %s; dispatchctl "
              "will need a built-in profile of PyTorch %s" % (", ".join(lacking), version), file=sys.stderr)
    elif args.profile:
        _status("probing the release profile")
        try:
            manifest["release_profile"] = release_profile(C, torch, version)
        except ExportError as e:
            problems.add("no release profile: %s" % e)
    if args.fallbacks:
        manifest["fallbacks"] = fallbacks
    manifest["operators"] = operators
    if args.recorded:
        manifest["recorded"] = {"tables": tables, "states": states}
    stats = (len(operators), sum(len(o.get("kernels", [])) for o in operators), len(fallbacks),
             torch.__version__)
    return manifest, stats


def render(manifest, write):
    """JSON with one line per fallback and per kernel (diffable, and small), handed
    to `write` in pieces: no copy of the whole text is ever built."""
    one = json.JSONEncoder(ensure_ascii=False).encode  # json.dumps's text, without an encoder per value
    string = json.encoder.encode_basestring  # a str quoted as json.dumps does: the bulk of the file

    def lines(texts, opening, closing):
        """opening, then `texts` one per line separated by commas, then closing;
        written 500 lines at a time."""
        texts = iter(texts)
        separator = "\n"
        write(opening)
        while True:
            batch = [text for _, text in zip(range(500), texts)]
            if not batch:
                break
            write(separator + ",\n".join(batch))
            separator = ",\n"
        write(closing)

    def operator(op):
        kernels = op.get("kernels")
        if not kernels:
            return "  " + one(op)
        head = one({k: v for k, v in op.items() if k != "kernels"})
        return "  " + head[:-1] + ', "kernels": [\n' + ",\n".join("    " + one(k) for k in kernels) + "]}"

    write('{\n "dispatchctl_manifest": %s,\n "torch_version": %s,\n'
          % (one(manifest["dispatchctl_manifest"]), one(manifest["torch_version"])))
    if "release_profile" in manifest:
        lines(("  %s: %s" % (string(k), one(v)) for k, v in manifest["release_profile"].items()),
              ' "release_profile": {', "\n },\n")
    if "fallbacks" in manifest:
        lines(("  " + one(fb) for fb in manifest["fallbacks"]), ' "fallbacks": [', "\n ],\n")
    if "recorded" not in manifest:
        lines(map(operator, manifest["operators"]), ' "operators": [', "\n ]\n}\n")
        return
    lines(map(operator, manifest["operators"]), ' "operators": [', "\n ],\n")
    tables, states = manifest["recorded"]["tables"], manifest["recorded"]["states"]
    lines(("   %s: %s" % (string(k), string(tables[k])) for k in sorted(tables)),
          ' "recorded": {\n  "tables": {', "},\n")
    lines(("   %s: %s" % (string(k), string(states[k])) for k in sorted(states)),
          '  "states": {', "}\n }\n}\n")


def write_atomically(path, fill):
    """Calls fill(write) into a temporary file beside `path`, then renames it there."""
    directory = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=".%s." % os.path.basename(path), suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "wb") as f:  # bytes: a text file's write costs 0.2 s more for 33 MB
            fill(lambda text: f.write(text.encode("utf-8")))
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="dispatchctl-export",
        description="Write a dispatchctl manifest of the live PyTorch dispatcher registry "
                    "(every operator, kernel and backend fallback).",
        epilog="Example: python3 tools/dispatchctl-export.py --import my_ext -o my_torch.json && "
               "dispatchctl show 'my_ext::*' -m my_torch.json")
    parser.add_argument("-o", "--output", metavar="FILE",
                        help="write here (atomically); default: standard output")
    parser.add_argument("--namespace", dest="namespaces", action="append", default=[], metavar="NS",
                        help="export only operators of this namespace (repeatable)")
    parser.add_argument("--op", dest="ops", action="append", default=[], metavar="NAME",
                        help="export only this operator: full name, bare name (all overloads) or "
                             "glob (repeatable; adds to --namespace)")
    parser.add_argument("--import", dest="imports", action="append", default=[], metavar="MODULE",
                        help="import this module first, e.g. your extension that registers "
                             "operators (repeatable)")
    parser.add_argument("--no-fallbacks", dest="fallbacks", action="store_false",
                        help="leave the backend fallbacks out, e.g. to layer the export over "
                             "builtin:VERSION, which has them already")
    parser.add_argument("--no-profile", dest="profile", action="store_false",
                        help="leave the release profile out (dispatchctl then needs a built-in "
                             "profile of the same MAJOR.MINOR)")
    parser.add_argument("--no-recorded", dest="recorded", action="store_false",
                        help="do not record every operator's _dispatch_dump_table and _dispatch_dump "
                             "text (smaller file; 'dispatchctl verify' needs them)")
    args = parser.parse_args(argv)

    problems = Problems()
    where = args.output if args.output and args.output != "-" else "standard output"
    try:
        manifest, (n_ops, n_kernels, n_fallbacks, raw_version) = export(args, problems)
        if args.output and args.output != "-":
            write_atomically(args.output, lambda write: render(manifest, write))
        else:
            sys.stdout.flush()
            out = getattr(sys.stdout, "buffer", None)
            render(manifest, (lambda text: out.write(text.encode("utf-8"))) if out else sys.stdout.write)
            sys.stdout.flush()
    except ExportError as e:
        _status_clear()
        print("dispatchctl-export: error: %s" % e, file=sys.stderr)
        return 2
    except OSError as e:
        _status_clear()
        print("dispatchctl-export: error: cannot write %s: %s" % (where, e.strerror or e), file=sys.stderr)
        return 2
    print("dispatchctl-export: torch %s: %d operators, %d kernels, %d backend fallbacks -> %s"
          % (raw_version, n_ops, n_kernels, n_fallbacks, where), file=sys.stderr)
    if problems.items:
        print("dispatchctl-export: %d thing(s) could not be read (warnings above); the manifest "
              "may be incomplete" % len(problems.items), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    status = main()
    # Everything is written; tearing down torch and the registry's texts would cost
    # ~0.2 s of CPU for nothing.
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):
        status = status or 2
    os._exit(status)
