"""The release profile (README "Release profiles"): keys.json's fields read
off this torch, plus the behaviour probed here."""

from dispatchctl_exporter.behaviour_probes import probe_call_behaviour, probe_registration_behaviour
from dispatchctl_exporter.torch_keys import key_enum, keyset_names, read_tensor_modifiers, runtime_key_order, tensor_presets


def release_profile(C, torch, version):
    """keys.json's fields plus the behaviour probed here; `inferred` lists what was not observed."""
    DK = C.DispatchKey
    inferred = []
    enum = key_enum(C)
    value_of = {}
    for e in enum:
        value_of.setdefault(e["name"], e["value"])
    order = runtime_key_order(C, enum)
    runtime = set(order)
    last_runtime = max(value_of[n] for n in order)
    aliases = [e["name"] for e in enum if e["value"] > last_runtime]
    expansion = {a: [k for k in order if k != "Undefined" and
                     C._dispatch_is_included_in_alias(DK(value_of[k]), DK(value_of[a]))] for a in aliases}
    autograd_keys = expansion.get("Autograd", [])
    backend_sets = {k: keyset_names(C, C._dispatch_get_backend_keyset_from_autograd(DK(value_of[k])))
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
        cpu_keys = keyset_names(C, C._dispatch_keys(torch.ones(1)))
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
        profile["default_tls_included"] = keyset_names(C, C._dispatch_tls_local_include_set())
        profile["default_tls_excluded"] = keyset_names(C, C._dispatch_tls_local_exclude_set())
        with torch.inference_mode():
            inside = keyset_names(C, C._dispatch_tls_local_include_set())
        profile["inference_mode_tls_unincluded"] = [k for k in profile["default_tls_included"] if k not in inside]
    # c10's constants (autograd_dispatch_keyset_with_ADInplaceOrView); the TLS print drops
    # AutogradFunctionality (no backend bit), so these are not read back.
    profile["inference_mode_tls_excluded"] = ["AutogradFunctionality", "AutogradOther", "AutogradNestedTensor"]
    profile["inference_tensor_removed"] = ["ADInplaceOrView", "AutogradFunctionality", "AutogradOther",
                                           "AutogradNestedTensor"]
    inferred.extend(["/inference_mode_tls_excluded", "/inference_tensor_removed"])
    profile["tensor_presets"] = tensor_presets(C, torch, names, autocast_of,
                                                profile["backends_with_autograd_other"])
    probes = probe_registration_behaviour(C, torch, profile, inferred)
    read_tensor_modifiers(C, torch, profile, inferred, probes)
    probe_call_behaviour(C, torch, profile, inferred, probes)
    profile["probes"] = probes
    profile["inferred"] = inferred
    return profile
