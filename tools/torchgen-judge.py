#!/usr/bin/env python3
"""Record what a release's REAL torchgen does with each edit of its own YAML.

Run with the Python whose torchgen is that release's (Debian's python3-torch
ships it with its templates, and 2.x its autograd codegen under
torchgen/packaged/autograd):

  tools/torchgen-judge.py --yaml DIR --edits tests/torchgen_corpus/edits.json \
      --out tests/torchgen_corpus/real-2.14.1.json [--jobs 2]

DIR holds the release's unpacked native_functions.yaml, tags.yaml,
derivatives.yaml and deprecated.yaml. Every edit goes through the three
stages a PyTorch build runs, in a build's order:
  torchgen.gen        the full ATen codegen into a temporary directory, with
                      the templates (a --dry-run skips the templates' code
                      generation, where more asserts fire);
  gen_autograd        tools/autograd: derivative loading, differentiability
                      matching, VariableType / ADInplaceOrView / Functions;
  gen_autograd_python the Python bindings (gen_python_functions).
The first stage that raises is the verdict ("refused", with its stage and
error). For an accepted edit the judge also reads the GENERATED code of the
edited YAML and of the unchanged YAML and records what changed for users
(`costs`): an operator gone from RegisterSchema.cpp (operator-removed), an
Autograd kernel that became autogradNotImplementedFallback() or a backward
node whose formula is not_implemented(...) (backward-not-implemented), a
VariableType kernel that now raises for forward AD
(forward-not-implemented), an operator whose CompositeImplicitAutograd
registration is gone without a CompositeExplicitAutograd one
(math-kernel-lost), and one that had a kernel for CPU or CUDA (its own or a
composite's) and has none now (dense-kernel-lost). These are PyTorch's
facts, never dispatchctl's: the torchgen_corpus test compares `check --base`
against them. Not run in CI (it needs that release's torchgen).
"""
import argparse
import concurrent.futures
import json
import os
import pathlib
import re
import subprocess
import sys
import tempfile

import torchgen

from torchgen_edits import apply_edit

FILES = ("native_functions.yaml", "tags.yaml", "derivatives.yaml", "deprecated.yaml")
PACKAGED = pathlib.Path(torchgen.__file__).parent / "packaged"
PYTHON_BINDINGS = ("import sys\nfrom torchgen.packaged.autograd.gen_autograd import gen_autograd_python\n"
                   "gen_autograd_python(*sys.argv[1:5])\n")


# A traceback's exception line: a builtin exception or a module's
# (torchgen.api.translate.UnsatError, whose message starts on the next line).
EXCEPTION_LINE = re.compile(r"(?:[A-Za-z_]\w*\.)*\w*(?:Error|Exception)(?::|$)|yaml\.")


def last_error_line(stderr):
    """The exception line torchgen ended with (assertions carry their message after it)."""
    lines = [line for line in stderr.splitlines() if line.strip()]
    for i in range(len(lines) - 1, -1, -1):
        if EXCEPTION_LINE.match(lines[i]):
            return "\n".join(lines[i:])[:2000]
    return "\n".join(lines[-3:])[:2000]


def run_stages(texts, workdir):
    """(verdict dict, ATen output dir, autograd output dir)."""
    src = workdir / "src"
    (src / "native").mkdir(parents=True)
    for name in ("native_functions.yaml", "tags.yaml"):
        (src / "native" / name).write_text(texts[name])
    os.symlink(PACKAGED / "ATen" / "templates", src / "templates")
    autograd = workdir / "autograd"
    autograd.mkdir()
    for name in ("derivatives.yaml", "deprecated.yaml"):
        (autograd / name).write_text(texts[name])
    os.symlink(PACKAGED / "autograd" / "templates", autograd / "templates")
    native, tags = str(src / "native" / "native_functions.yaml"), str(src / "native" / "tags.yaml")
    (workdir / "bindings.py").write_text(PYTHON_BINDINGS)
    stages = [
        ("torchgen.gen", [sys.executable, "-m", "torchgen.gen", "-s", str(src), "-d", str(workdir / "aten")]),
        ("gen_autograd", [sys.executable, "-m", "torchgen.packaged.autograd.gen_autograd", native, tags,
                          str(workdir / "autograd-out"), str(autograd)]),
        ("gen_autograd_python", [sys.executable, str(workdir / "bindings.py"), native, tags,
                                 str(workdir / "python-out"), str(autograd)]),
    ]
    for stage, command in stages:
        run = subprocess.run(command, capture_output=True, text=True, cwd=workdir)
        if run.returncode != 0:
            verdict = {"verdict": "refused", "stage": stage, "error": last_error_line(run.stderr)}
            if stage == "torchgen.gen":
                dry = subprocess.run(command + ["--dry-run"], capture_output=True, text=True, cwd=workdir)
                verdict["dry_run_refuses"] = dry.returncode != 0
            return verdict, None, None
    return {"verdict": "accepted"}, workdir / "aten", workdir / "autograd-out"


IMPL = re.compile(r'm\.impl\("([^"]+)",\s*(?:TORCH_FN\(VariableType::(\w+)\)|(torch::autograd::autogradNotImplementedFallback))')
FUNCTION = re.compile(r"^\S[^\n]*? (\w+)\(c10::DispatchKeySet ks", re.M)
NODE = re.compile(r"make_intrusive<(\w+)>")
# A backward node's formulas live in NODE_apply_functional (2.x) or NODE::apply (1.x).
APPLY = re.compile(r"^(?:static )?(?:C10_NOINLINE )?(?:inline )?variable_list (\w+?)(?:_apply_functional\w*|::\w+)\(",
                   re.M)
NOT_IMPLEMENTED_FORWARD = re.compile(r'"Trying to use forward AD with \w+ that does not support it because it has not')
DEF = re.compile(r'm\.def\("([^"(]+)\((.*)\) -> ')


def generated_facts(aten, autograd):
    """Per operator what the generated code gives it: {op: {keys, autograd, backward_raises, forward_raises}}."""
    facts = {}
    schema = (aten / "RegisterSchema.cpp").read_text()
    for name, arguments in DEF.findall(schema):
        # A Tensor input that can require grad: every Tensor argument but the out= ones (keyword-only, written).
        positional, _, keyword = arguments.partition("*")
        inputs = [a for a in positional.split(", ") if "Tensor" in a] + \
                 [a for a in keyword.split(", ") if "Tensor" in a and "!" not in a.split(" ")[0]]
        facts[name] = {"keys": set(), "autograd": "none", "backward_raises": False, "forward_raises": False,
                       "tensor_input": bool(inputs)}
    for path in aten.glob("Register*Everything.cpp"):
        key = path.name[len("Register"):-len("Everything.cpp")]
        for name in re.findall(r'm\.impl\("([^"]+)"', path.read_text()):
            if name in facts:
                facts[name]["keys"].add(key)
    functions_cpp = (autograd / "Functions.cpp").read_text()
    raising_nodes = set()
    applies = list(APPLY.finditer(functions_cpp))
    for i, m in enumerate(applies):
        body = functions_cpp[m.end():applies[i + 1].start() if i + 1 < len(applies) else len(functions_cpp)]
        if "not_implemented(" in body:
            raising_nodes.add(m.group(1))
    for path in sorted(autograd.glob("VariableType_*.cpp")):
        text = path.read_text()
        bodies = {}
        starts = list(FUNCTION.finditer(text))
        for i, m in enumerate(starts):
            bodies[m.group(1)] = text[m.end():starts[i + 1].start() if i + 1 < len(starts) else len(text)]
        for name, function, fallback in IMPL.findall(text):
            if name not in facts:
                continue
            fact = facts[name]
            if fallback:
                fact["autograd"] = "not-implemented"
                continue
            fact["autograd"] = "kernel"
            body = bodies.get(function, "")
            fact["backward_raises"] = any(node in raising_nodes for node in NODE.findall(body))
            fact["forward_raises"] = bool(NOT_IMPLEMENTED_FORWARD.search(body))
    return facts


def dense(fact):
    return bool(fact["keys"] & {"CPU", "CUDA", "CompositeImplicitAutograd", "CompositeExplicitAutograd",
                                "CompositeExplicitAutogradNonFunctional"})


def costs(base, after):
    """What the edit costs users, read from the generated code: (rule, operator) pairs."""
    found = []
    for name in sorted(set(base) - set(after)):
        found.append(("operator-removed", name))
    for name in sorted(after):
        now, was = after[name], base.get(name)
        if was and "CompositeImplicitAutograd" in was["keys"] and not now["keys"] & {
                "CompositeImplicitAutograd", "CompositeExplicitAutograd"}:
            found.append(("math-kernel-lost", name))
        elif was and dense(was) and not dense(now):
            found.append(("dense-kernel-lost", name))
        raises = now["tensor_input"] and (now["autograd"] == "not-implemented" or now["backward_raises"])
        raised = was and (was["autograd"] == "not-implemented" or was["backward_raises"])
        if raises and not raised:
            found.append(("backward-not-implemented", name))
        elif was and now["forward_raises"] and not was["forward_raises"] and not raises:
            found.append(("forward-not-implemented", name))
    return [{"rule": rule, "operator": "aten::" + name} for rule, name in found]


BASE_FACTS = None


def judge(texts, edit):
    """An edit's `base` steps stand for a fork's main that drifted from the
    release: the edit applies on top of them and is compared with them."""
    base_facts = BASE_FACTS
    if "base" in edit:
        texts = apply_edit(texts, {"id": edit["id"], "steps": edit["base"]})
        with tempfile.TemporaryDirectory() as tmp:
            verdict, aten, autograd = run_stages(texts, pathlib.Path(tmp))
            assert verdict["verdict"] == "accepted", (edit["id"], verdict)
            base_facts = generated_facts(aten, autograd)
    with tempfile.TemporaryDirectory() as tmp:
        verdict, aten, autograd = run_stages(apply_edit(texts, edit), pathlib.Path(tmp))
        if verdict["verdict"] == "accepted":
            verdict["costs"] = costs(base_facts, generated_facts(aten, autograd))
    return verdict


def main():
    global BASE_FACTS
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--yaml", required=True, type=pathlib.Path)
    parser.add_argument("--edits", required=True, type=pathlib.Path)
    parser.add_argument("--out", required=True, type=pathlib.Path)
    parser.add_argument("--only", nargs="*", help="edit ids to judge (default: all)")
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    texts = {name: (args.yaml / name).read_text() for name in FILES}
    edits = json.loads(args.edits.read_text())["edits"]
    if args.only:  # in the order given
        by_id = {e["id"]: e for e in edits}
        edits = [by_id[i] for i in args.only]
    with tempfile.TemporaryDirectory() as tmp:
        verdict, aten, autograd = run_stages(texts, pathlib.Path(tmp))
        assert verdict["verdict"] == "accepted", verdict
        BASE_FACTS = generated_facts(aten, autograd)
    for edit in edits:  # an edit whose `from` text is not in its file stops here, in one line
        try:
            apply_edit(apply_edit(texts, {"id": edit["id"], "steps": edit["base"]}) if "base" in edit else texts, edit)
        except ValueError as e:
            sys.exit(str(e))
    previous = json.loads(args.out.read_text())["verdicts"] if args.out.exists() else {}
    verdicts = dict(previous)
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for edit, verdict in zip(edits, pool.map(lambda e: judge(texts, e), edits)):
            verdicts[edit["id"]] = verdict
            print(edit["id"], verdict["verdict"], verdict.get("stage", ""), verdict.get("costs", ""),
                  file=sys.stderr, flush=True)
            release = getattr(__import__("torch"), "__version__", "unknown")
            document = {"torch_version": release, "torchgen": str(pathlib.Path(torchgen.__file__).parent),
                        "stages": ["torchgen.gen", "gen_autograd", "gen_autograd_python"],
                        "verdicts": {k: verdicts[k] for k in sorted(verdicts)}}
            tmp = args.out.with_suffix(".tmp")
            tmp.write_text(json.dumps(document, indent=1) + "\n")
            tmp.replace(args.out)


if __name__ == "__main__":
    main()
