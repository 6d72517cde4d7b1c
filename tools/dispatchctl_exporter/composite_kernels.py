"""Which kernels of the live registry are hand-written composites (docs/composite-calls.md):
a kernel at CompositeImplicitAutograd, CompositeExplicitAutograd or
CompositeExplicitAutogradNonFunctional that is not one of torchgen's generated composites
(the functional and in-place kernels of a structured operator, and the `autogen:` kernels),
which dispatchctl already describes (generated_call) from the same native_functions.yaml."""

import os

COMPOSITE_KEYS = ("CompositeImplicitAutograd", "CompositeExplicitAutograd", "CompositeExplicitAutogradNonFunctional")


def generated_composites(yaml_folder):
    """{(operator, key)} of torchgen's generated composite kernels, read from the
    native_functions.yaml torchgen ships beside torch; None when it cannot be read."""
    if not yaml_folder:
        return None
    try:
        import yaml
        loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
        with open(os.path.join(yaml_folder, "native_functions.yaml")) as f:
            entries = yaml.load(f, Loader=loader)
    except Exception:  # noqa: BLE001 (no PyYAML, unreadable: record every composite)
        return None
    generated = set()
    for entry in entries or []:
        if not isinstance(entry, dict) or "func" not in entry:
            continue
        name = "aten::" + entry["func"].split("(", 1)[0].strip()
        if name.endswith(".default"):
            name = name[: -len(".default")]
        if entry.get("structured_delegate"):
            generated.add((name, "CompositeExplicitAutogradNonFunctional"))
        autogen = entry.get("autogen") or ""
        for other in str(autogen).split(","):
            other = other.strip()
            if other:
                generated.add(("aten::" + other, "CompositeExplicitAutograd"))
    return generated


def composite_kernels(operators, generated):
    """[(operator entry, key, kernel debug)] of the hand-written composite kernels among
    parsed _dispatch_dump entries (dump_parser.parse_state), and {reason: count} of the
    composite kernels left out."""
    chosen, left_out = [], {}
    for entry in operators:
        for kernel in entry.get("kernels", []):
            key = kernel.get("key")
            if key not in COMPOSITE_KEYS or kernel.get("inactive"):
                continue
            if generated is not None and (entry["name"], key) in generated:
                left_out["torchgen's generated composite (generated_call describes it)"] = \
                    left_out.get("torchgen's generated composite (generated_call describes it)", 0) + 1
                continue
            chosen.append((entry, key, kernel.get("kernel", "")))
    return chosen, left_out
