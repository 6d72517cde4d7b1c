#!/usr/bin/python3
"""End-to-end, issue 10: `dispatchctl export` and `-m python[:P]` with Debian's live 1.13.1.

  * `dispatchctl export --python /usr/bin/python3 -o F` writes a manifest that validates
    against schemas/manifest.schema.json and that `verify` passes (N/N identical, exit 0);
  * `show aten::add -m python:/usr/bin/python3` prints PyTorch's table and state of every
    overload exactly as `-m builtin:1.13.1` does (the built-in registry is real 1.13.1 data);
  * the export is cached under $XDG_CACHE_HOME/dispatchctl: the second run says "cache
    hit" under -v and leaves the file untouched (mtime, size), and a key change (torch
    found elsewhere, through PYTHONPATH) looks for another cache file;
  * the export says what torchgen's generated composites call (derived from the YAML torchgen
    ships beside torch): exactly real torchgen 1.13.1's; `report -m python` follows them as
    `-m builtin:1.13.1` does;
  * the cached export equals `dispatchctl export`'s minus the recorded dumps, and `verify
    -m python` exports with them and passes (N/N identical);
  * a broken interpreter (missing, or a torch that fails to import) is one error line, exit 2,
    and leaves no cache file behind."""

import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import e2e_common as e2e  # noqa: E402

PYTHON = "/usr/bin/python3"


def fail(text):
    print("FAIL: " + text)
    sys.exit(1)


def run(args, argv, env, expect):
    proc = subprocess.run([args.dispatchctl] + argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    out, err = proc.stdout.decode(), proc.stderr.decode()
    if proc.returncode != expect:
        fail("dispatchctl %s: exit %d (expected %d)\n%s" % (" ".join(argv), proc.returncode, expect, err[-2000:]))
    return out, err


def cache_files(cache):
    folder = os.path.join(cache, "dispatchctl")
    if not os.path.isdir(folder):
        return {}
    return {n: os.stat(os.path.join(folder, n)) for n in os.listdir(folder) if n.startswith("export-")}


def main():
    args = e2e.arguments(__doc__)
    e2e.require_torch()
    import jsonschema
    repo = e2e.REPO
    cache = os.path.join(args.workdir, "xdg-cache")
    subprocess.run(["rm", "-rf", cache], check=True)
    env = dict(os.environ, XDG_CACHE_HOME=cache)

    # export → schema-valid → verify.
    export = os.path.join(args.workdir, "export.json")
    if os.path.exists(export):
        os.unlink(export)
    run(args, ["export", "--python", PYTHON, "-o", export], env, 0)
    with open(export, encoding="utf-8") as f:
        manifest = json.load(f)
    with open(os.path.join(repo, "schemas/manifest.schema.json"), encoding="utf-8") as f:
        schema = json.load(f)
    errors = list(jsonschema.Draft202012Validator(schema).iter_errors(manifest))
    if errors:
        fail("the export does not validate: %s at %s" % (errors[0].message[:300], list(errors[0].path)))
    # What the generated composites call, derived from the YAML torchgen ships beside this
    # torch (issue 22): exactly what real torchgen 1.13.1 generates (recorded with Debian's
    # torchgen by record_generated_calls.py; builtin:1.13.1 carries the same, test_torchgen_generated_calls).
    with open(os.path.join(repo, "tests/data/generated_calls/torch-1.13.1.json"), encoding="utf-8") as f:
        real_calls = {(c["op"], c["key"], c["calls"], c["kind"]) for c in json.load(f)["calls"]}
    exported_ops = {op["name"] for op in manifest["operators"]}
    real_calls = {c for c in real_calls if c[0] in exported_ops}
    # The export's "generated_calls" section names each kernel by its entry.
    export_calls = {(manifest["operators"][c["operator"]]["name"],
                     manifest["operators"][c["operator"]]["kernels"][c["kernel"]]["key"], c["op"], c["kind"])
                    for c in manifest.get("generated_calls", [])}
    if len(real_calls) < 800 or export_calls != real_calls:
        fail("the export's generated calls differ from real torchgen 1.13.1's: %d not derived, e.g. %s; "
             "%d extra, e.g. %s" % (len(real_calls - export_calls), sorted(real_calls - export_calls)[:3],
                                    len(export_calls - real_calls), sorted(export_calls - real_calls)[:3]))
    out, _ = run(args, ["verify", "-m", export], env, 0)
    n = len(manifest["recorded"]["tables"])
    if n < 3000 or out != "%d/%d tables identical, %d/%d states identical\n" % (n, n, n, n):
        fail("verify printed %r for %d recorded operators" % (out, n))

    # -m python equals the built-in 1.13.1 answer; the first run exports, the second hits the cache.
    spec = "python:" + PYTHON
    for fmt in ("torch-table", "torch-state"):
        ours, err = run(args, ["-v", "show", "aten::add", "--format", fmt, "-m", spec], env, 0)
        builtin, _ = run(args, ["show", "aten::add", "--format", fmt, "-m", "builtin:1.13.1"], env, 0)
        if ours != builtin:
            fail("show aten::add --format %s -m %s differs from builtin:1.13.1" % (fmt, spec))
        if fmt == "torch-table":
            first_err = err
            after_first = cache_files(cache)
    m = re.search(r"no cached export at (\S+); running the exporter", first_err)
    if not m or not os.path.dirname(m.group(1)) == os.path.join(cache, "dispatchctl"):
        fail("the first -m python run did not export into $XDG_CACHE_HOME:\n%s" % first_err)
    if len(after_first) != 1:
        fail("expected one cached export, found %s" % sorted(after_first))
    if "cache hit " + m.group(1) not in err:
        fail("the second -m python run did not use the cache:\n%s" % err)
    name, before = next(iter(after_first.items()))
    after = cache_files(cache)[name]
    if (after.st_mtime_ns, after.st_size) != (before.st_mtime_ns, before.st_size):
        fail("the cached export was rewritten on a cache hit")
    # -m python follows generated composites as builtin:1.13.1 does: add.Tensor at
    # QuantizedCPU runs its structured composite into add.out's missing row. (Hand-written
    # composites such as add.Scalar follow the release's recorded calls, which an export
    # without --composite-calls does not have: left out.)
    report = ["report", "--op", "aten::add.Tensor", "--op", "aten::add_.Tensor", "--op", "aten::add.out",
              "--op", "aten::addmm*", "--key", "QuantizedCPU", "--key", "CPU", "--format", "json"]
    ours, err = run(args, report + ["-m", spec], env, 0)
    builtin, _ = run(args, report + ["-m", "builtin:1.13.1"], env, 0)
    if json.loads(ours)["operators"] != json.loads(builtin)["operators"]:
        fail("report -m %s differs from builtin:1.13.1 on aten::add* and aten::addmm*" % spec)
    if '"composite_fails"' not in ours or "taken at face value" in err:
        fail("report -m %s does not follow generated composites:\n%s" % (spec, err))
    # A torch whose torchgen ships no YAML (a shadowing torchgen package without packaged/):
    # the load says its generated composites are taken at face value.
    bare_torchgen = os.path.join(args.workdir, "bare-torchgen")
    os.makedirs(os.path.join(bare_torchgen, "torchgen"), exist_ok=True)
    open(os.path.join(bare_torchgen, "torchgen", "__init__.py"), "w").close()
    _, err = run(args, ["show", "aten::add.Tensor", "-m", spec], dict(env, PYTHONPATH=bare_torchgen), 0)
    if "taken at face value" not in err:
        fail("an export without torchgen's YAML must say its generated composites are taken at face value:\n%s" % err)
    # The cached export is the export without its recorded dumps (the same torch gives the
    # same manifest), so verify asks for a `dispatchctl export` file instead.
    with open(os.path.join(cache, "dispatchctl", name), encoding="utf-8") as f:
        cached_manifest = json.load(f)
    if cached_manifest != {k: v for k, v in manifest.items() if k != "recorded"}:
        differing = sorted(k for k in set(manifest) | set(cached_manifest)
                           if k != "recorded" and manifest.get(k) != cached_manifest.get(k))
        fail("the cached export differs from 'dispatchctl export' minus 'recorded' in %s" % differing)
    # verify -m python exports with the recorded dumps itself (a cache entry of its own).
    out, _ = run(args, ["verify", "-m", spec], env, 0)
    if out != "%d/%d tables identical, %d/%d states identical\n" % (n, n, n, n):
        fail("verify -m %s printed %r for %d recorded operators" % (spec, out, n))
    cached_before_failures = cache_files(cache)

    # The key changes with where torch is found: another cache file is looked for, and a
    # torch that fails to import is one clear line, exit 2, nothing cached.
    shim = os.path.join(args.workdir, "shim")
    os.makedirs(os.path.join(shim, "torch"), exist_ok=True)
    with open(os.path.join(shim, "torch", "__init__.py"), "w") as f:
        f.write("raise ImportError('this torch is broken on purpose')\n")
    _, err = run(args, ["-v", "show", "aten::add", "-m", spec], dict(env, PYTHONPATH=shim), 2)
    looked = re.search(r"no cached export at (\S+);", err)
    if not looked or looked.group(1) == m.group(1):
        fail("a torch found elsewhere must change the cache key:\n%s" % err)
    errors = [line for line in err.splitlines() if line.startswith("dispatchctl: error:")]
    if len(errors) != 1 or "broken on purpose" not in errors[0] or "python:" not in errors[0]:
        fail("a broken torch: expected one error line naming the interpreter and the cause:\n%s" % err)
    if set(cache_files(cache)) != set(cached_before_failures):
        fail("a failed export left a cache file: %s" % sorted(cache_files(cache)))
    missing = os.path.join(args.workdir, "no-such-python")
    _, err = run(args, ["show", "aten::add", "-m", "python:" + missing], env, 2)
    if err.count("\n") != 1 or not err.startswith("dispatchctl: error: python:" + missing):
        fail("a missing interpreter: expected one error line, got %r" % err)
    # ?import=M: the export imports M first, so M's registrations are in the registry.
    ext = os.path.join(args.workdir, "ext")
    os.makedirs(ext, exist_ok=True)
    with open(os.path.join(ext, "e2e_import_ext.py"), "w") as f:
        f.write("import torch\n"
                "lib = torch.library.Library('e2eimport', 'DEF')\n"
                "lib.define('probe(Tensor x) -> Tensor')\n"
                "lib.impl('probe', lambda x: x, 'CPU')\n")
    ext_env = dict(env, PYTHONPATH=ext)
    out, _ = run(args, ["show", "e2eimport::probe", "--format", "torch-table",
                        "-m", spec + "?import=e2e_import_ext"], ext_env, 0)
    if not re.search(r"^CPU: .*\[kernel\]", out, re.M):
        fail("-m %s?import=e2e_import_ext: the imported module's CPU kernel is missing:\n%s" % (spec, out))
    _, err = run(args, ["show", "e2eimport::probe", "-m", spec + "?imports=e2e_import_ext"], ext_env, 2)
    if "did you mean 'import'?" not in err:
        fail("a misspelt ?import option must suggest 'import':\n%s" % err)
    print("export: %d operators, verify %s; -m python equals builtin:1.13.1 for aten::add, cached in %s"
          % (n, out.strip(), name))
    return 0


if __name__ == "__main__":
    sys.exit(main())
