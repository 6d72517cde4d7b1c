#!/usr/bin/python3
"""The exporter against PyTorch 2.14.1 and 1.13.1 without a live PyTorch:
a stand-in `torch` module answers the exporter's torch._C._dispatch_* calls
from the real recorded dumps (lib/builtin/data/*/registry_state.txt.gz, the
_dispatch_dump of every operator, and tests/data/*/computed_tables.txt.gz, the
_dispatch_dump_table of every operator). The export must reproduce every
recorded table and state through dispatchctl. This exercises the 2.x code path
(_dispatch_get_all_op_names, 2.x key names) that the live 1.13.1 cannot."""

import gzip
import json
import os
import sys
import time
import types

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import e2e_common as e2e  # noqa: E402

SOURCE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def read_blocks(path):
    with gzip.open(path, "rt", encoding="utf-8") as f:
        return e2e.split_blocks(f.read())


def fake_torch(version, states, tables, fallbacks, keys_txt, api_2x):
    """A `torch` module with just what the exporter may call."""
    members = {}
    member_names = {}
    with open(keys_txt, encoding="utf-8") as f:
        for line in f:
            if line.startswith("#"):
                continue
            _value, name, python_names = line.rstrip("\n").split("\t")
            if python_names != "-":
                for p in python_names.split(","):
                    members[p] = types.SimpleNamespace(name=p)
                    member_names[p] = name
    C = types.ModuleType("torch._C")
    C.DispatchKey = types.SimpleNamespace(__members__=members)
    C._dispatch_dump = lambda name: states.get(name, "")
    C._dispatch_dump_table = lambda name: tables.get(name, "")
    C._dispatch_has_backend_fallback = lambda key: member_names[key.name] in fallbacks
    C._dispatch_find_dangling_impls = lambda: [s for s in states.values() if "\nschema: (none)\n" in s]
    if api_2x:
        C._dispatch_get_all_op_names = lambda: list(states)
    else:
        C._dispatch_get_registrations_for_dispatch_key = lambda key="": list(states)
    torch = types.ModuleType("torch")
    torch.__version__ = version
    torch._C = C
    return torch


def check_release(args, release, version, api_2x):
    states = read_blocks(os.path.join(SOURCE, "lib/builtin/data/torch-%s/registry_state.txt.gz" % release))
    tables = read_blocks(os.path.join(SOURCE, "tests/data/torch-%s/computed_tables.txt.gz" % release))
    with open(os.path.join(SOURCE, "lib/builtin/data/torch-%s/fallbacks.json" % release), encoding="utf-8") as f:
        fallbacks = json.load(f)
    sys.modules["torch"] = fake_torch(version, states, tables, fallbacks,
                                      os.path.join(SOURCE, "tests/data/torch-%s/keys.txt" % release), api_2x)
    try:
        export = os.path.join(args.workdir, "recorded_%s.json" % release)
        e2e.run_exporter(args.exporter, ["-o", export])
    finally:
        del sys.modules["torch"]
    with open(export, encoding="utf-8") as f:
        manifest = json.load(f)
    bad = []
    if manifest["torch_version"] != release:
        print("MISMATCH torch_version %r, expected %r" % (manifest["torch_version"], release))
        bad.append("torch_version")
    exported_fallbacks = {fb["key"]: ("fallthrough " if fb.get("fallthrough") else "") + fb["kernel"]
                          for fb in manifest["fallbacks"]}
    if exported_fallbacks != fallbacks:
        print("MISMATCH fallbacks: exported %s, recorded %s" % (exported_fallbacks, fallbacks))
        bad.append("fallbacks")
    ours_tables = e2e.split_blocks(e2e.dispatchctl(args.dispatchctl, ["show", "*", "--format", "torch-table", "-m", export]))
    ours_states = e2e.split_blocks(e2e.dispatchctl(args.dispatchctl, ["show", "*", "--format", "torch-state", "-m", export]))
    bad += e2e.compare(tables, ours_tables, "torch-table %s" % release)
    bad += e2e.compare(states, ours_states, "torch-state %s" % release)
    print("torch %s (%s API): %d operators, %d fallbacks: %d mismatches"
          % (version, "2.x" if api_2x else "1.13", len(states), len(fallbacks), len(bad)))
    return bad


def main():
    args = e2e.arguments(__doc__)
    started = time.time()
    bad = check_release(args, "2.14.1", "2.14.1+debian", True)
    bad += check_release(args, "1.13.1", "1.13.1", False)
    print("%.1f s" % (time.time() - started))
    if bad:
        print("FAIL: %d mismatches" % len(bad))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
