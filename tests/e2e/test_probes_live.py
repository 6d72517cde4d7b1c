#!/usr/bin/python3
"""End-to-end, issue 10: the exporter's call probes against Debian's live PyTorch 1.13.1.

Each probe's value in the exported profile must equal what this process observes with
its own operators (Python kernels that only say they were reached), what the built-in
1.13.1 profile holds, and `dispatchctl trace` on the export must follow it:

  * fallthrough mask before or after TLS: a CPU tensor with Meta in TLS included, on an
    operator with CPU, Meta and AutogradMeta kernels (AutogradCPU: 1.13's fallthrough
    fallback). Real 1.13.1 runs the Meta kernel (the mask of the tensors' backend);
    flipping the profile field makes trace take AutogradMeta, so the field is what decides;
  * the ambiguous AutogradOther INTERNAL ASSERT: file:line and hint, and trace's error
    text equal to the live one character for character;
  * the tensor presets and modifiers (observed vs inferred), as `keys` and `trace` show them;
  * the Autograd fallback: on 1.13.1 the output of a CPU-only operator does not require grad."""

import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import e2e_common as e2e  # noqa: E402

NS = "dcprobe_e2e"
MARKER = "e2e-reached:"


def fail(text):
    print("FAIL: " + text)
    sys.exit(1)


def marker(key):
    def kernel(*args):
        raise RuntimeError(MARKER + key)
    return kernel


def reached(call):
    try:
        call()
    except RuntimeError as e:
        text = str(e)
        return text[len(MARKER):] if text.startswith(MARKER) else text
    return "returned"


def trace(args, manifest, argv):
    proc = subprocess.run([args.dispatchctl, "trace"] + argv + ["-m", manifest, "--format", "json"],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if proc.returncode not in (0, 1):
        fail("trace %s: exit %d: %s" % (argv, proc.returncode, proc.stderr.decode()))
    return proc.returncode, json.loads(proc.stdout.decode())


def write(path, manifest):
    with open(path, "w", encoding="utf-8") as f:
        json.dump(manifest, f)


def main():
    args = e2e.arguments(__doc__)
    torch = e2e.require_torch()
    C = torch._C
    repo = e2e.REPO
    with open(os.path.join(repo, "lib/builtin/data/torch-1.13.1/profile.json"), encoding="utf-8") as f:
        builtin = json.load(f)

    lib = torch.library.Library(NS, "DEF")
    lib.define("mask(Tensor x) -> Tensor")
    for key in ("CPU", "Meta", "AutogradMeta"):
        lib.impl("mask", marker(key), key)
    lib.define("amb(Tensor x) -> Tensor")
    for key in ("CompositeImplicitAutograd", "FPGA"):
        lib.impl("amb", marker(key), key)
    lib.define("cpu_only(Tensor x) -> Tensor")
    lib.impl("cpu_only", lambda x: x.detach().clone(), "CPU")

    export = os.path.join(args.workdir, "probes.json")
    e2e.run_exporter(args.exporter, ["--namespace", NS, "-o", export])
    with open(export, encoding="utf-8") as f:
        manifest = json.load(f)
    profile = manifest["release_profile"]
    inferred = profile["inferred"]
    # Only the export's profile may answer: a release nothing is built in for.
    manifest["torch_version"] = profile["torch_version"] = "1.99.0"
    unknown = os.path.join(args.workdir, "probes_unknown.json")
    write(unknown, manifest)

    # (a) fallthrough mask before or after TLS.
    C._add_meta_to_tls_dispatch_include()
    try:
        live = reached(lambda: torch.ops.dcprobe_e2e.mask(torch.ones(1)))
    finally:
        C._remove_meta_from_tls_dispatch_include()
    if live != "Meta":
        fail("real 1.13.1 runs the Meta kernel (mask of the tensors' backend), this torch ran %r" % live)
    if profile["fallthrough_mask_after_tls"] is not False or builtin["fallthrough_mask_after_tls"] is not False \
            or "/fallthrough_mask_after_tls" in inferred:
        fail("fallthrough_mask_after_tls: %r (inferred: %s), probe: %s"
             % (profile["fallthrough_mask_after_tls"], inferred, profile["probes"].get("fallthrough_mask")))
    _, out = trace(args, unknown, ["dcprobe_e2e::mask", "--tensor", "cpu", "--tls-include", "Meta"])
    if out["hops"][0]["row"] != live:
        fail("trace runs %s first, the live call ran %s" % (out["hops"][0]["row"], live))
    flipped_manifest = json.loads(json.dumps(manifest))
    flipped_manifest["release_profile"]["fallthrough_mask_after_tls"] = True
    flipped = os.path.join(args.workdir, "probes_flipped.json")
    write(flipped, flipped_manifest)
    _, out = trace(args, flipped, ["dcprobe_e2e::mask", "--tensor", "cpu", "--tls-include", "Meta"])
    if out["hops"][0]["row"] != "AutogradMeta":
        fail("with the mask after TLS trace should run AutogradMeta first, runs %s" % out["hops"][0]["row"])

    # (b) the ambiguous AutogradOther assert.
    csr = torch.ones(1, 1).to_sparse_csr()
    live_error = reached(lambda: torch.ops.dcprobe_e2e.amb(csr))
    for field in ("ambiguous_assert_at", "ambiguous_autogradother_hint"):
        if profile[field] != builtin[field] or "/" + field in inferred:
            fail("%s: %r, built-in 1.13.1: %r" % (field, profile[field], builtin[field]))
    if ("INTERNAL ASSERT FAILED at %s," % profile["ambiguous_assert_at"]) not in live_error:
        fail("the live assert does not name %s: %s" % (profile["ambiguous_assert_at"], live_error[:200]))
    code, out = trace(args, unknown, ["dcprobe_e2e::amb", "--tensor", "sparse_csr_cpu"])
    if code != 1 or out["hops"][-1].get("error") != live_error:
        fail("trace's ambiguous-AutogradOther error differs from the live one:\n%r\n%r"
             % (out["hops"][-1].get("error"), live_error))

    # 1.13 has no Python way to register a per-operator fallthrough: that assert stays unknown.
    if "/fallthrough_assert_at" not in inferred or "fallthrough_assert_at" in profile \
            or "not run" not in profile["probes"].get("fallthrough_at_undefined", ""):
        fail("fallthrough assert: %r, probe %r" % (profile.get("fallthrough_assert_at"),
                                                   profile["probes"].get("fallthrough_at_undefined")))

    # (c) presets and modifiers, observed where a CPU-only build can make the tensor.
    for name, preset in builtin["tensor_presets"].items():
        ours = profile["tensor_presets"].get(name) or {}
        # An inferred preset follows c10's rule without the autocast mapping no API reports
        # (1.13's XLA tensors carry AutocastCUDA): only its first three keys are compared.
        same = ours == preset if preset["observed"] else \
            (ours.get("observed") is False and ours["keys"][:3] == preset["keys"][:3])
        if not same:
            fail("preset %s: %s, built-in 1.13.1: %s" % (name, ours, preset))
    live_nested = e2e_keys(C, torch.nested.nested_tensor([torch.ones(1)]))
    if profile["tensor_presets"]["nested_cpu"]["keys"] != live_nested:
        fail("nested_cpu preset %s, live %s" % (profile["tensor_presets"]["nested_cpu"], live_nested))
    if profile["tensor_modifier_keys"] != builtin["tensor_modifier_keys"] or \
            any(p.startswith("/tensor_modifier_keys") for p in inferred):
        fail("tensor_modifier_keys %s (inferred %s)" % (profile["tensor_modifier_keys"], inferred))
    live_conj = e2e_keys(C, torch.ones(1, dtype=torch.complex64).conj())
    if "Conjugate" not in live_conj or profile["probes"]["tensor_modifiers_added_keys"]["requires_grad"] != []:
        fail("modifier probes %s" % profile["probes"]["tensor_modifiers_added_keys"])
    inferred_presets = sorted(n for n, p in profile["tensor_presets"].items() if not p["observed"])
    if inferred_presets != ["cuda", "mps", "privateuse1", "xla"]:
        fail("a CPU-only 1.13.1 infers exactly cuda, mps, privateuse1, xla; got %s" % inferred_presets)
    keys = json.loads(e2e.dispatchctl(args.dispatchctl, ["keys", "-m", unknown, "--json"]))
    shown = sorted(p["name"] for p in keys["tensor_presets"] if not p["observed"])
    if shown != inferred_presets:
        fail("keys --json marks %s inferred, the profile %s" % (shown, inferred_presets))
    _, out = trace(args, unknown, ["dcprobe_e2e::cpu_only", "--tensor", "cuda"])
    if out["calls"][0]["arguments"][0].get("inferred") is not True:
        fail("trace does not mark the cuda preset inferred: %s" % out["calls"][0]["arguments"][0])
    del manifest["release_profile"]["tensor_presets"]["nested_cpu"]
    lacking = os.path.join(args.workdir, "probes_no_nested.json")
    write(lacking, manifest)
    proc = subprocess.run([args.dispatchctl, "-q", "trace", "dcprobe_e2e::cpu_only", "--tensor", "nested_cpu", "-m",
                           lacking], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    err = proc.stderr.decode()
    if proc.returncode != 2 or err.count("\n") != 1 or "nested_cpu" not in err or "--keyset" not in err:
        fail("a preset the profile lacks: exit %d, %r" % (proc.returncode, err))

    # (d) the Autograd fallback of an operator with only a CPU kernel.
    y = torch.ops.dcprobe_e2e.cpu_only(torch.ones(2, requires_grad=True))
    if y.requires_grad:
        fail("on 1.13.1 the autograd fallback is a fallthrough: the output should not require grad")
    if profile["autograd_fallback_backward_warning"] != "" or builtin["autograd_fallback_backward_warning"] != "" \
            or "/autograd_fallback_backward_warning" in inferred \
            or profile["probes"]["autograd_fallback"] != {"output_requires_grad": False}:
        fail("autograd fallback: %r, probe %s" % (profile["autograd_fallback_backward_warning"],
                                                 profile["probes"].get("autograd_fallback")))
    print("probes on torch %s: mask before TLS (live ran %s), ambiguous assert at %s, %d presets "
          "(%s inferred), autograd fallback a fallthrough; trace follows each"
          % (torch.__version__, live, profile["ambiguous_assert_at"], len(profile["tensor_presets"]),
             ", ".join(inferred_presets)))
    return 0


def e2e_keys(C, tensor):
    text = str(C._dispatch_keys(tensor))
    return [n.strip() for n in text[text.index("(") + 1: text.rindex(")")].split(",") if n.strip()]


if __name__ == "__main__":
    sys.exit(main())
