#!/usr/bin/env python3
"""Record what a release's REAL torchgen does with each edit of its own YAML.

Run with the Python whose torchgen is that release's (Debian's python3-torch
ships it with its templates, and 2.x its autograd codegen under
torchgen/packaged/autograd):

  tools/torchgen-judge.py --yaml DIR --edits tests/torchgen_corpus/edits.json \
      --out tests/torchgen_corpus/real-2.14.1.json

DIR holds the release's unpacked native_functions.yaml, tags.yaml,
derivatives.yaml and deprecated.yaml. For every edit, the edited files go
through `python3 -m torchgen.gen --dry-run` (the model's asserts, gen.py's
checks, native function generation, functionalization) and, when that
accepts, through tools/autograd's gen_autograd (derivative loading and
differentiability matching). The result is the golden the torchgen_corpus
test compares `dispatchctl check` against: it is PyTorch's verdict, never
dispatchctl's. Not run in CI (it needs that release's torchgen).
"""
import argparse
import json
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile

import torchgen

FILES = ("native_functions.yaml", "tags.yaml", "derivatives.yaml", "deprecated.yaml")


def apply_edit(texts, edit):
    texts = dict(texts)
    name = edit["file"]
    if "append" in edit:
        texts[name] += edit["append"]
    else:
        if edit["from"] not in texts[name]:
            sys.exit(f"edit {edit['id']}: `from` not found in {name}")
        texts[name] = texts[name].replace(edit["from"], edit["to"], 1)
    return texts


def last_error_line(stderr):
    """The exception line torchgen ended with (assertions carry their message after it)."""
    lines = [line for line in stderr.splitlines() if line.strip()]
    for i in range(len(lines) - 1, -1, -1):
        if lines[i].startswith(("AssertionError", "RuntimeError", "ValueError", "KeyError", "Exception",
                                "AttributeError", "TypeError", "IndexError", "NotImplementedError", "yaml.")):
            return "\n".join(lines[i:])[:2000]
    return "\n".join(lines[-3:])[:2000]


def judge(texts, workdir):
    packaged = pathlib.Path(torchgen.__file__).parent / "packaged"
    src = workdir / "src"
    (src / "native").mkdir(parents=True)
    for name in ("native_functions.yaml", "tags.yaml"):
        (src / "native" / name).write_text(texts[name])
    os.symlink(packaged / "ATen" / "templates", src / "templates")
    out = workdir / "out"
    run = subprocess.run([sys.executable, "-m", "torchgen.gen", "-s", str(src), "-d", str(out), "--dry-run"],
                         capture_output=True, text=True, cwd=workdir)
    if run.returncode != 0:
        return {"verdict": "refused", "stage": "torchgen.gen", "error": last_error_line(run.stderr)}
    autograd = workdir / "autograd"
    autograd.mkdir()
    for name in ("derivatives.yaml", "deprecated.yaml"):
        (autograd / name).write_text(texts[name])
    os.symlink(packaged / "autograd" / "templates", autograd / "templates")
    run = subprocess.run([sys.executable, "-m", "torchgen.packaged.autograd.gen_autograd",
                          str(src / "native" / "native_functions.yaml"), str(src / "native" / "tags.yaml"),
                          str(workdir / "autograd-out"), str(autograd)],
                         capture_output=True, text=True, cwd=workdir)
    if run.returncode != 0:
        return {"verdict": "refused", "stage": "gen_autograd", "error": last_error_line(run.stderr)}
    return {"verdict": "accepted"}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--yaml", required=True, type=pathlib.Path)
    parser.add_argument("--edits", required=True, type=pathlib.Path)
    parser.add_argument("--out", required=True, type=pathlib.Path)
    parser.add_argument("--only", nargs="*", help="edit ids to judge (default: all)")
    args = parser.parse_args()
    texts = {name: (args.yaml / name).read_text() for name in FILES}
    edits = json.loads(args.edits.read_text())["edits"]
    previous = json.loads(args.out.read_text())["verdicts"] if args.out.exists() else {}
    verdicts = dict(previous)
    for edit in edits:
        if args.only and edit["id"] not in args.only:
            continue
        with tempfile.TemporaryDirectory() as tmp:
            verdicts[edit["id"]] = judge(apply_edit(texts, edit), pathlib.Path(tmp))
        print(edit["id"], verdicts[edit["id"]]["verdict"], file=sys.stderr, flush=True)
    release = getattr(__import__("torch"), "__version__", "unknown")
    document = {"torch_version": release, "torchgen": str(pathlib.Path(torchgen.__file__).parent),
                "verdicts": {k: verdicts[k] for k in sorted(verdicts)}}
    tmp = args.out.with_suffix(".tmp")
    tmp.write_text(json.dumps(document, indent=1) + "\n")
    tmp.replace(args.out)


if __name__ == "__main__":
    main()
