#!/usr/bin/python3
"""End-to-end, issue 10: Debian's PyTorch 1.13.1 treated as a release dispatchctl has
never seen. Export the live registry (with its release profile and recorded dumps),
rename the release to 1.99.0 so no built-in profile can be used, then check that

  * every table and state dispatchctl computes from the export equals what this live
    torch prints (goldens from torch._C in this process, not from dispatchctl);
  * `dispatchctl verify` says N/N identical (exit 0), and exit 1 with a unified diff
    when one recorded table is changed;
  * the probed profile fields match what this process observes itself;
  * `keys -m` prints the exported release's catalogue."""

import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import e2e_common as e2e  # noqa: E402


def keyset_names(C, keyset):
    text = str(keyset)
    inner = text[text.index("(") + 1: text.rindex(")")]
    return [n.strip() for n in inner.split(",") if n.strip()]


def fail(text):
    print("FAIL: " + text)
    sys.exit(1)


def main():
    args = e2e.arguments(__doc__)
    torch = e2e.require_torch()
    C = torch._C
    export = os.path.join(args.workdir, "profile_export.json")
    e2e.run_exporter(args.exporter, ["-o", export])
    with open(export, encoding="utf-8") as f:
        manifest = json.load(f)
    profile = manifest.get("release_profile")
    if not profile or "recorded" not in manifest:
        fail("the export has no release_profile or no recorded dumps")

    # Probes against what this process sees itself.
    if profile["default_tls_included"] != keyset_names(C, C._dispatch_tls_local_include_set()):
        fail("default_tls_included %s" % profile["default_tls_included"])
    if profile["tensor_presets"]["cpu"]["keys"] != keyset_names(C, C._dispatch_keys(torch.ones(1))):
        fail("cpu preset %s" % profile["tensor_presets"]["cpu"])
    if profile["tensor_presets"]["cuda"]["observed"]:
        fail("a CPU-only build cannot observe a CUDA tensor")
    if profile["override_warning_once"] is not False or profile["override_warning_silent_keys"] != []:
        fail("1.13 warns on every override, for every key: %s" % profile["probes"])
    if profile["meta_fallback_error"] != "" or C._dispatch_has_backend_fallback(C.DispatchKey.Meta):
        fail("1.13 has no raising Meta fallback")
    if "Could not run '{op}'" not in profile["probes"].get("missing_row_error", ""):
        fail("missing-row error text not recorded: %s" % profile["probes"])

    # Out of reach of the built-in profiles: a release number nothing is built in for.
    manifest["torch_version"] = "1.99.0"
    profile["torch_version"] = "1.99.0"
    unknown = os.path.join(args.workdir, "unknown_release.json")
    with open(unknown, "w", encoding="utf-8") as f:
        json.dump(manifest, f)

    names = sorted(manifest["recorded"]["tables"])
    live_tables = {n: C._dispatch_dump_table(n) for n in names}
    live_states = {n: C._dispatch_dump(n) for n in names}
    ours_tables = e2e.split_blocks(e2e.dispatchctl(args.dispatchctl, ["show", "*", "--format", "torch-table", "-m", unknown]))
    ours_states = e2e.split_blocks(e2e.dispatchctl(args.dispatchctl, ["show", "*", "--format", "torch-state", "-m", unknown]))
    bad = e2e.compare(live_tables, ours_tables, "torch-table") + e2e.compare(live_states, ours_states, "torch-state")
    if bad:
        fail("%d operators differ from the live torch, e.g. %s" % (len(bad), bad[:5]))

    out = e2e.dispatchctl(args.dispatchctl, ["verify", "-m", unknown])
    n = len(names)
    expected = "%d/%d tables identical, %d/%d states identical\n" % (n, n, n, n)
    if out != expected:
        fail("verify printed %r, expected %r" % (out, expected))

    manifest["recorded"]["tables"]["aten::add.Tensor"] += "Bogus: a row PyTorch never printed [kernel]\n"
    tampered = os.path.join(args.workdir, "tampered.json")
    with open(tampered, "w", encoding="utf-8") as f:
        json.dump(manifest, f)
    proc = subprocess.run([args.dispatchctl, "verify", "-m", tampered], stdout=subprocess.PIPE)
    text = proc.stdout.decode()
    if proc.returncode != 1 or "-Bogus: a row PyTorch never printed [kernel]" not in text \
            or "%d/%d tables identical" % (n - 1, n) not in text:
        fail("verify on a tampered export: exit %d\n%s" % (proc.returncode, text[:2000]))

    keys = e2e.dispatchctl(args.dispatchctl, ["keys", "-m", unknown, "--json"])
    if json.loads(keys)["backends"][:3] != ["CPU", "CUDA", "HIP"]:
        fail("keys -m: %s" % keys[:300])
    print("torch %s as unknown release 1.99.0: %d operators, tables and states identical; "
          "verify: %s" % (torch.__version__, n, out.strip()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
