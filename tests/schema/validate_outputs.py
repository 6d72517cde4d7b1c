#!/usr/bin/python3
"""Runs dispatchctl's JSON-producing commands and validates each real output
against its schema in schemas/ (JSON Schema 2020-12), then checks that the
schemas are strict: a real output with a required field dropped, an unknown
field added or a field of the wrong type is refused. Every output schema must
be exercised by at least one command.
usage: validate_outputs.py ROOT DISPATCHCTL"""
import copy
import json
import pathlib
import subprocess
import sys

import jsonschema

root = pathlib.Path(sys.argv[1])
dispatchctl = sys.argv[2]
schemas_dir = root / "schemas"
manifests = root / "tests/manifests"
small = str(root / "tests/cli/fixtures/small.json")
stale = str(root / "tests/cli/fixtures/stale.json")
fixtures = root / "tests/schema/fixtures"
migration = root / "tests/cli/fixtures/migration"

# (schema name, command arguments, expected exit status)
CASES = [
    ("show", ["show", "aten::add.Tensor", "--format", "json"], 0),
    ("show", ["show", "aten::linear", "--all-keys", "--format", "json", "-m", "builtin:1.13.1"], 0),
    ("show", ["show", "demo::stale", "--live", "--format", "json", "-m", "builtin:2.14.1", "-m", stale], 0),
    ("show", ["show", "myops::*", "--format", "json", "-m", str(manifests / "check/dangling_impl.json")], 0),
    ("explain", ["explain", "aten::add.Tensor", "--key", "AutogradCPU", "--format", "json"], 0),
    ("explain", ["explain", "test::baz", "--key", "Meta", "--format", "json", "-m", small], 0),
    ("explain", ["explain", "test::foo", "--key", "CompositeImplicitAutograd", "--format", "json", "-m", small], 0),
    ("explain", ["explain", "test::bar", "--key", "AutogradOther", "--format", "json", "-m", small], 0),
    ("explain", ["explain", "demo::stale", "--key", "AutogradCPU", "--format", "json", "-m", "builtin:2.14.1",
                 "-m", stale], 0),
    ("explain-key", ["explain", "--key", "Meta", "--format", "json"], 0),
    ("explain-key", ["explain", "--key", "CompositeImplicitAutograd", "--limit", "3", "--format", "json"], 0),
    ("explain-key", ["explain", "--key", "AutogradCPU", "--list", "fallback", "--format", "json", "-m", small], 0),
    ("has-kernel", ["has-kernel", "aten::add.Tensor", "--key", "CPU", "--format", "json"], 0),
    ("has-kernel", ["has-kernel", "aten::add.Tensor", "--key", "Dense", "--computed", "--format", "json"], 0),
    ("has-kernel", ["has-kernel", "test::baz", "--key", "Meta", "--computed", "--format", "json", "-m", small], 1),
    ("query", ["query", "--key", "Meta", "--fails", "--op", "aten::a*", "--json"], 0),
    ("query", ["query", "--key", "Meta", "--tag", "missing", "--json"], 1),
    ("query", ["query", "--key", "AutogradCPU", "--outcome", "autograd_not_implemented", "--json"], 0),
    ("report", ["report", "--key", "Meta", "--key", "CPU", "--op", "aten::add*", "--format", "json"], 0),
    # Issue 33: an operator set ("scope"), query's outcomes without a predicate, a backend's diff
    # (rows a fallback fills, "by_fallback"; an added operator's rows at --key).
    ("report", ["report", "--key", "PrivateUse1", "--opset", "core", "--format", "json"], 0),
    ("query", ["query", "--key", "PrivateUse1", "--opset", "core", "--format", "json"], 0),
    ("diff", ["diff", "--format", "json", "--old", "builtin:2.6.0+cuda", "--old", str(migration / "npu_2.6.0.json"),
              "--new", "builtin:2.14.1", "--new", str(migration / "npu_2.14.1.json"), "--key", "AutogradPrivateUse1",
              "--op", "npu::*", "--op", "aten::_cudnn_attention_forward"], 1),
    ("report", ["report", "--key", "PrivateUse1", "--op", "aten::a*", "--format", "json", "-m", "builtin:2.14.1",
                "-m", str(root / "examples/privateuse1_backend.json")], 0),
    ("trace", ["trace", "aten::add.Tensor", "--tensor", "cpu:requires_grad", "--tensor", "cpu", "--format", "json"], 0),
    ("trace", ["trace", "aten::matmul", "--tensor", "cpu", "--tensor", "cpu", "--autocast", "cpu", "--format", "json"], 0),
    ("trace", ["trace", "demo::cpu_only", "-m", "builtin:2.14.1", "-m", stale, "--tensor", "meta", "--format", "json"], 1),
    ("trace", ["trace", "demo::stale", "-m", "builtin:2.14.1", "-m", stale, "--tensor", "cpu", "--format", "json"], 0),
    ("trace", ["trace", "aten::add.Tensor", "--tensor", "cpu:conj", "--tensor", "cpu", "--format", "json"], 0),
    ("diff", ["diff", "--format", "json", "--old", "builtin:2.14.1", "--new", "builtin:2.14.1",
              "--new", str(manifests / "diff/add_cea_to_cia_op.json")], 1),
    ("diff", ["diff", "--format", "json", str(manifests / "diff/small_old.json"),
              str(manifests / "diff/small_new.json")], 1),
    ("diff", ["diff", "--format", "json", "builtin:2.14.1", "builtin:2.14.1"], 0),
    ("check", ["check", str(manifests / "check/cia_with_cpu.json"), "--format", "json", "--no-config"], 0),
    ("check", ["check", str(manifests / "check/invalid/syntax.json"), "--format", "json", "--no-config"], 1),
    ("check", ["check", str(manifests / "check/dangling_impl.json"), "--format", "json", "--no-config"], 0),
    # --base: the "base" counts and per-finding pre_existing; a torchgen refusal's "kind".
    ("check", ["check", "builtin:2.14.1", str(manifests / "check/dangling_impl.json"), "--base", "builtin:2.14.1",
               "--show-existing", "--format", "json", "--no-config"], 0),
    ("check", ["check", "torchgen:" + str(manifests.parent / "cli/fixtures/torchgen/refused.yaml"), "--format", "json",
               "--no-config"], 1),
    # --base with a change that does not load: "base"."not_loaded".
    ("check", ["check", "builtin:2.14.1", str(manifests / "check/invalid/syntax.json"), "--base", "builtin:2.14.1",
               "--format", "json", "--no-config"], 1),
    ("keys", ["keys", "--json"], 0),
    ("keys", ["keys", "--json", "--torch-version", "1.13"], 0),
    ("keys", ["keys", "--alias", "CompositeExplicitAutograd", "--json"], 0),
    ("registries", ["registries", "--json"], 0),
    # Recorded tables are real PyTorch 2.14.1 dumps (shared data); verify_differs records
    # aten::tanh's table under aten::sigmoid and under an operator the registry lacks.
    ("verify", ["verify", "-m", "builtin:2.14.1", "-m", str(fixtures / "verify_identical.json"), "--format", "json"], 0),
    ("verify", ["verify", "-m", "builtin:2.14.1", "-m", str(fixtures / "verify_differs.json"), "--format", "json"], 1),
]

# The schemas' $ids are their file names: relative to the folder they are
# read from, so a $ref to common.schema.json resolves to the file next to it,
# offline, as the README's `python3 -m jsonschema --base-uri file://…/schemas/`
# does. No store of preloaded schemas: the resolver reads the files.
schemas = {}
for path in sorted(schemas_dir.glob("*.schema.json")):
    schema = json.loads(path.read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["$id"] == path.name, f"{path.name}: $id {schema['$id']!r}, expected its file name"
    schemas[path.name[: -len(".schema.json")]] = schema
base_uri = schemas_dir.resolve().as_uri() + "/"
output_schemas = set(schemas) - {"common", "manifest"}


def validator(name):
    schema = schemas[name]
    return jsonschema.Draft202012Validator(schema, resolver=jsonschema.RefResolver(base_uri, schema))


def errors_of(name, doc):
    return [f"/{'/'.join(map(str, e.absolute_path))}: {e.message[:200]}" for e in validator(name).iter_errors(doc)]


def paths(doc, path=()):
    """Paths of every object and every value in DOC, following the first item of arrays."""
    yield path
    if isinstance(doc, dict):
        for k, v in doc.items():
            yield from paths(v, path + (k,))
    elif isinstance(doc, list) and doc:
        yield from paths(doc[0], path + (0,))


def mutated(doc, path, change):
    doc = copy.deepcopy(doc)
    parent = doc
    for step in path[:-1]:
        parent = parent[step]
    change(parent, path[-1])
    return doc


failures = []
used = set()
outputs = []
for name, args, want_exit in CASES:
    used.add(name)
    run = subprocess.run([dispatchctl, *args], capture_output=True, text=True)
    label = "dispatchctl " + " ".join(a if root.as_posix() not in a else pathlib.Path(a).name for a in args)
    if run.returncode != want_exit:
        failures.append(f"{label}: exit {run.returncode}, expected {want_exit}: {run.stderr.strip()}")
        continue
    try:
        doc = json.loads(run.stdout)
    except ValueError as e:
        failures.append(f"{label}: stdout is not JSON: {e}")
        continue
    if doc.get("schema_version") != 1 or next(iter(doc)) != "schema_version":
        failures.append(f"{label}: does not start with \"schema_version\": 1")
    failures += [f"{label}: {e}" for e in errors_of(name, doc)[:5]]
    outputs.append((name, label, doc))

# trace --calls (JSON Lines): every line is a trace document.
calls_run = subprocess.run([dispatchctl, "trace", "--calls", str(root / "tests/cli/fixtures/trace_calls.jsonl"),
                            "-m", "builtin:1.13.1"], capture_output=True, text=True)
if calls_run.returncode != 1 or len(calls_run.stdout.splitlines()) != 3:
    failures.append(f"trace --calls: exit {calls_run.returncode}, {len(calls_run.stdout.splitlines())} lines, "
                    f"expected exit 1 and 3 lines: {calls_run.stderr.strip()}")
for number, line in enumerate(calls_run.stdout.splitlines(), 1):
    failures += [f"trace --calls, line {number}: {e}" for e in errors_of("trace", json.loads(line))[:5]]

for missing in sorted(output_schemas - used):
    failures.append(f"schemas/{missing}.schema.json: no command output is validated against it")

# Strictness: the schemas refuse a real output with an unknown field in any
# object, any value of the wrong type, or schema_version missing.
def add_unknown(parent, key):
    parent[key]["unexpected_field_x"] = 1


def wrong_type(parent, key):
    parent[key] = "wrong type" if isinstance(parent[key], (int, float, bool, list, dict)) else 12345


mutations = 0
for name, label, doc in outputs:
    if errors_of(name, mutated(doc, ("schema_version",), lambda p, k: p.pop(k))) == []:
        failures.append(f"{label}: schema accepts a document without schema_version")
    for path in paths(doc):
        where = "/" + "/".join(map(str, path))
        node = doc
        for step in path:
            node = node[step]
        if isinstance(node, dict) and not errors_of(name, mutated({"": doc}, ("",) + path, add_unknown)[""]):
            failures.append(f"{label}: schema accepts an unknown field in {where}")
        if path and not errors_of(name, mutated(doc, path, wrong_type)):
            failures.append(f"{label}: schema accepts a value of the wrong type at {where}")
        mutations += 2

# The README's recipe: the stock validator's command line, $refs resolved from
# schemas/ (a file: base URI), no network. A real output passes; the same
# output with a torch_version that breaks common.schema.json's pattern (a
# $ref into the other file) fails.
import tempfile  # noqa: E402

for name, label, doc in outputs[:1]:
    with tempfile.TemporaryDirectory() as tmp:
        for suffix, instance, want_ok in (("good", doc, True), ("bad", dict(doc, torch_version="not a version"), False)):
            path = pathlib.Path(tmp) / f"{suffix}.json"
            path.write_text(json.dumps(instance))
            cli = subprocess.run([sys.executable, "-m", "jsonschema", "--base-uri", base_uri, "-i", str(path),
                                  str(schemas_dir / f"{name}.schema.json")], capture_output=True, text=True, timeout=60)
            if (cli.returncode == 0) != want_ok:
                failures.append(f"python3 -m jsonschema --base-uri … ({suffix} {label}): exit {cli.returncode}: "
                                f"{(cli.stderr or cli.stdout).strip()[:300]}")

print(f"validated {len(outputs)} real outputs against {len(used)} schemas; {mutations} mutations refused")
for f in failures:
    print("FAIL:", f)
sys.exit(1 if failures else 0)
