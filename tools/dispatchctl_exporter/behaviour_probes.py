"""Behaviour no API reports, probed with throwaway operators in scratch
namespaces: override warnings, error texts, and where calls of Python kernels
end up (what `trace` says)."""

import os
import re

from dispatchctl_exporter.torch_keys import preset_makers, silenced_stderr


def probe_registration_behaviour(C, torch, profile, inferred):
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
        _, meta_text = silenced_stderr(lambda: override("meta_twice", "Meta"))
        _, cpu_text = silenced_stderr(lambda: [override("cpu_twice", "CPU"), override("cpu_only", "CPU")])
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
                _, text = silenced_stderr(lambda: override(name, key))
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


MARKER = "dispatchctl-probe-reached:"


def _marker_kernel(key):
    """A Python kernel that only says it was reached: no tensor work under odd TLS."""
    def kernel(*args, **kwargs):
        raise RuntimeError(MARKER + key)
    return kernel


def _outcome(call):
    """(which marker kernel a call reached or None, the text of what it raised)."""
    try:
        silenced_stderr(call)
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
    """docs/dispatch-semantics.md §5.1 step 3: is the per-backend fallthrough mask the one of
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
    makers = preset_makers(torch)
    tensor = None
    for name, preset in profile["tensor_presets"].items():
        if preset["observed"] and "AutogradOther" in preset["keys"]:
            tensor, _ = silenced_stderr(makers[name])
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
            _, text = silenced_stderr(backward)
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
    """docs/dispatch-semantics.md §9.1: a per-operator fallthrough kernel that reaches the
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


def probe_call_behaviour(C, torch, profile, inferred, probes):
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
