#!/usr/bin/python3
"""Validates every manifest under examples/ and tests/ against
schemas/manifest.schema.json, and checks that the schema rejects what the
loader rejects (so the two cannot drift). Needs Debian's python3-jsonschema."""
import json
import pathlib
import subprocess
import sys
import tempfile

import jsonschema

root = pathlib.Path(sys.argv[1])
dispatchctl = sys.argv[2] if len(sys.argv) > 2 else None
schema = json.loads((root / "schemas/manifest.schema.json").read_text())
validator = jsonschema.Draft202012Validator(schema)
jsonschema.Draft202012Validator.check_schema(schema)

checked = 0
failures = []
for folder in ("examples", "tests"):
    for path in sorted((root / folder).rglob("*.json")):
        rel = path.relative_to(root)
        if {"bad_input", "invalid", "fuzz"} & set(rel.parts) or "data" in rel.parts[:2]:
            continue  # deliberately broken inputs and golden PyTorch data
        try:
            doc = json.loads(path.read_text())
        except Exception as e:  # noqa: BLE001
            failures.append(f"{rel}: not JSON: {e}")
            continue
        if not isinstance(doc, dict) or "dispatchctl_manifest" not in doc:
            continue  # other JSON (configs, expectations)
        errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.path))
        for e in errors:
            failures.append(f"{rel}: /{'/'.join(map(str, e.path))}: {e.message}")
        checked += 1

# The built-in release profiles are what an export's release_profile holds.
profile_validator = jsonschema.Draft202012Validator({"$ref": "#/$defs/releaseProfile", "$defs": schema["$defs"]})
builtin_profiles = sorted((root / "lib/builtin/data").glob("torch-*/profile.json"))
for path in builtin_profiles:
    for e in profile_validator.iter_errors(json.loads(path.read_text())):
        failures.append(f"{path.relative_to(root)}: /{'/'.join(map(str, e.path))}: {e.message}")
    checked += 1
# The built-in composite-call recordings are what an export's composite_calls holds.
import gzip  # noqa: E402
calls_validator = jsonschema.Draft202012Validator(dict(schema["properties"]["composite_calls"], **{"$defs": schema["$defs"]}))
for path in sorted((root / "lib/builtin/data").glob("torch-*/composite_calls.json.gz")):
    for e in calls_validator.iter_errors(json.loads(gzip.decompress(path.read_bytes()))):
        failures.append(f"{path.relative_to(root)}: /{'/'.join(map(str, e.path))}: {e.message}")
    checked += 1
profile_113 = json.loads((root / "lib/builtin/data/torch-1.13.1/profile.json").read_text())

# What the loader refuses, the schema refuses too.
base = {"dispatchctl_manifest": 1, "torch_version": "2.14.1"}
must_fail = [
    {},
    {"dispatchctl_manifest": 2, "torch_version": "2.14.1"},
    dict(base, operators=[{"schema": "x::y() -> ()"}]),
    dict(base, operators=[{"name": "noname"}]),
    dict(base, operators=[{"name": "x::y", "kernels": [{"key": "CPU"}]}]),
    dict(base, operators=[{"name": "x::y", "kernels": [{"key": "CPU", "kernel": "k", "fallthrough": "yes"}]}]),
    dict(base, operators=[{"name": "x::y", "alias_analysis": "MAGIC", "schema": "x::y() -> ()"}]),
    dict(base, operators=[{"name": "x::y", "debug": "d"}]),
    dict(base, operators=[{"name": "x::y", "kernels": [{"key": "CPU", "kernel": "k", "fallthruogh": True}]}]),
    dict(base, operators=[{"name": "x::y", "kernels": [{"key": "CPU", "kernel": "k", "then": "redispach"}]}]),
    # generated_call: both fields, a known kind, an operator name, nothing else
    dict(base, operators=[{"name": "x::y", "kernels": [{"key": "CPU", "kernel": "k",
                                                         "generated_call": {"op": "x::y.out"}}]}]),
    dict(base, operators=[{"name": "x::y", "kernels": [{"key": "CPU", "kernel": "k",
                                                         "generated_call": {"op": "x::y.out", "kind": "structured"}}]}]),
    dict(base, operators=[{"name": "x::y", "kernels": [{"key": "CPU", "kernel": "k",
                                                         "generated_call": {"op": "y_out", "kind": "structured_out"}}]}]),
    dict(base, operators=[{"name": "x::y", "kernels": [{"key": "CPU", "kernel": "k",
                                                         "generated_call": "x::y.out"}]}]),
    dict(base, operators=[{"name": "x::y", "kernels": [{"key": "CPU", "kernel": "k", "generated_call":
                                                         {"op": "x::y.out", "kind": "autogen_out", "line": 3}}]}]),
    dict(base, fallbacks=[{"key": "CPU"}]),
    dict(base, extra=1),
    # a probed text without {op}: the operator's name would have nowhere to go
    {"dispatchctl_manifest": 1, "torch_version": "1.13.1",
     "release_profile": dict(profile_113, autograd_fallback_backward_warning="backward warns")},
]
for i, doc in enumerate(must_fail):
    if validator.is_valid(doc):
        failures.append(f"schema accepts invalid manifest #{i}: {json.dumps(doc)}")
    if dispatchctl:
        with tempfile.NamedTemporaryFile("w", suffix=".json") as f:
            json.dump(doc, f)
            f.flush()
            run = subprocess.run([dispatchctl, "show", "*", "-m", f.name],
                                 capture_output=True, text=True)
            lines = run.stderr.strip().splitlines()
            if run.returncode != 2 or len(lines) != 1:
                failures.append(f"loader did not refuse invalid manifest #{i} with one line and exit 2 "
                                f"(exit {run.returncode}): {json.dumps(doc)}: {run.stderr!r}")

print(f"validated {checked} manifests; {len(must_fail)} invalid ones rejected")
if checked == 0:
    failures.append("no manifests found to validate")
for f in failures:
    print("FAIL:", f)
sys.exit(1 if failures else 0)
