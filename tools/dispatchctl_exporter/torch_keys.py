"""What this torch reports about its own keys: the enum, the runtime order,
key sets, and the keys of tensors of each `trace` preset and modifier. Every
API is feature-detected."""

import os
import re
import sys
import tempfile
import warnings

from dispatchctl_exporter.messages import ExportError


def keyset_names(C, keyset):
    text = C._dispatch_keyset_to_string(keyset) if hasattr(C, "_dispatch_keyset_to_string") else str(keyset)
    m = re.match(r"^DispatchKeySet\((.*)\)$", text.strip())
    if not m:
        raise ExportError("cannot read a key set from %r" % text)
    return [n.strip() for n in m.group(1).split(",") if n.strip()]


def key_enum(C):
    DK = C.DispatchKey
    by_value = {}
    for name, member in DK.__members__.items():
        by_value.setdefault(int(member), []).append(name)
    last = max(by_value)  # the last alias key: BC names reuse lower values
    if not hasattr(C, "_dispatch_key_name"):
        raise ExportError("torch._C._dispatch_key_name is missing; cannot read the key enum")
    return [{"value": v, "name": C._dispatch_key_name(DK(v)), "python_members": by_value.get(v, [])}
            for v in range(last + 1)]


def runtime_key_order(C, enum):
    DK = C.DispatchKey
    if hasattr(C, "_dispatch_keyset_full"):
        return ["Undefined"] + keyset_names(C, C._dispatch_keyset_full())
    if hasattr(C, "_dispatch_keyset_full_after"):
        # FULL_AFTER(k) always adds PythonDispatcher (§1.8); after it, nothing is left out.
        value = next((e["value"] for e in enum if e["name"] == "PythonDispatcher"), None)
        if value is not None:
            return ["Undefined"] + keyset_names(C, C._dispatch_keyset_full_after(DK(value)))
    raise ExportError("this torch reports no full key set (_dispatch_keyset_full)")


def silenced_stderr(fn):
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


def preset_makers(torch):
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


def modifier_makers(torch):
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


def observed_keys(C, make):
    """torch._C._dispatch_keys of a fresh tensor, or None when this build cannot make it."""
    try:
        tensor, _ = silenced_stderr(make)  # beta/prototype warnings (CSR, nested) are not ours
        return keyset_names(C, C._dispatch_keys(tensor))
    except Exception:  # noqa: BLE001 - this build cannot make it
        return None


def tensor_presets(C, torch, names, autocast_of, autograd_other_backends):
    device_backend = {"cuda": "CUDA", "xla": "XLA", "mps": "MPS", "privateuse1": "PrivateUse1"}
    presets = {}
    for name, make in preset_makers(torch).items():
        keys = observed_keys(C, make)
        if keys is not None:
            presets[name] = {"keys": keys, "observed": True}
            continue
        backend = device_backend.get(name)
        if backend is None or backend not in names:
            continue
        # c10's rule (docs/dispatch-semantics.md §5.3): backend, ADInplaceOrView, its autograd key, its Autocast key.
        autograd = "AutogradOther" if backend in autograd_other_backends else "Autograd" + backend
        keys = [backend, "ADInplaceOrView", autograd] + ([autocast_of[backend]] if backend in autocast_of else [])
        presets[name] = {"keys": [k for k in keys if k in names], "observed": False}
    return presets


def read_tensor_modifiers(C, torch, profile, inferred, probes):
    """The key each `trace` modifier adds, read off real tensors; c10's names where a build cannot make one."""
    defaults = {"conj": "Conjugate", "neg": "Negative", "zerotensor": "ZeroTensor"}
    base = observed_keys(C, lambda: torch.ones(1))
    modifiers, seen = {}, {}
    for name, make in modifier_makers(torch).items():
        keys = observed_keys(C, make) if base is not None else None
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
    inference = observed_keys(C, inference_tensor) if hasattr(torch, "inference_mode") else None
    probes["inference_tensor_keys"] = inference
    profile["tensor_modifier_keys"] = modifiers
