#!/usr/bin/python3
"""dispatchctl against the REAL torchgen of 2.14.1 on a corpus of YAML edits.

edits.json holds realistic edits of PyTorch 2.14.1's own YAML;
real-2.14.1.json is what that release's real torchgen did with each
(tools/torchgen-judge.py, run with Debian sid's python3-torch 2.14.1 through
torchgen.gen, gen_autograd and gen_autograd_python: the golden is PyTorch's
verdict, never dispatchctl's). edits-second.json / real-second-2.14.1.json is
a second corpus on other operators (`--corpus second`), edits-third.json /
real-third-2.14.1.json a third aimed at the refusals found reading torchgen's
source assert by assert, beside accepted look-alikes (`--corpus third`),
edits-fourth.json / real-fourth-2.14.1.json a fourth on functionalization,
view groups and view replay (`--corpus fourth`), edits-fifth.json /
real-fifth-2.14.1.json a fifth on tools/autograd's and the Python bindings'
refusals (`--corpus fifth`), edits-sixth.json a sixth written blind as a
PR stream (`--corpus sixth`), edits-seventh.json a seventh on deprecated.yaml
(`--corpus seventh`), edits-eighth.json an eighth, blind again
(`--corpus eighth`), edits-ninth.json a ninth, blind, on backend dispatch
keys, autogen, entry flags, tags and argument types (`--corpus ninth`), edits-tenth.json a tenth, blind, on derivatives.yaml
(`--corpus tenth`), edits-eleventh.json an eleventh, blind, of whole PRs across
native_functions.yaml, derivatives.yaml, tags.yaml and deprecated.yaml at once
(`--corpus eleventh`), edits-twelfth.json a twelfth, blind, on the schema grammar
(annotations, `*`, list / optional types, defaults, returns, names; `--corpus twelfth`),
edits-thirteenth.json a thirteenth, blind, on derivatives.yaml's saved variables,
returns, grads and forward formulas (`--corpus thirteenth`), edits-fourteenth.json a
fourteenth, blind, on accepted edits and what they cost (`--corpus fourteenth`), edits-fifteenth.json a
fifteenth, blind, on the YAML documents themselves and every entry key's type and
spelling (`--corpus fifteenth`). For every edit:
- torchgen refused it: `check` reports a torchgen-refusal error at the edited
  entry (file and line) (for YAML that does not parse, its load-error there),
  and `show` refuses the YAML with one line naming that file:line, exit 2;
- torchgen accepted it: `check` reports no torchgen-refusal and `show`
  loads it (exit 0); with `--base` (the unchanged YAML, or the edit's `base`
  steps: a fork's main that drifted from the release) the findings are
  exactly the verdict's `costs` (rule and operator), which the judge read
  from the code the real torchgen generated: none for a harmless edit. A
  finding that names the variants it covers (`covers`) stands for each.
  Each is located at a line of the edited YAML, in file and line order.
A refused edit is checked without registry and base (the lint finds the
refusal; half the cost). Usage: check_verdicts.py DISPATCHCTL [--corpus second|third|fourth|fifth|sixth|seventh|eighth|fixes|ninth|tenth|eleventh|twelfth|thirteenth|fourteenth|fifteenth] [--every N] [EDIT_ID...]"""
import collections
import concurrent.futures
import gzip
import json
import pathlib
import subprocess
import sys
import tempfile

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "tools"))
from torchgen_edits import apply_edit  # noqa: E402 (the judge's own edit applier)

HERE = pathlib.Path(__file__).resolve().parent
YAML = HERE.parent / "data" / "torch-2.14.1" / "torchgen"  # the shipped files, as in ../shared/data
FILES = ("native_functions.yaml", "tags.yaml", "derivatives.yaml", "deprecated.yaml")


def shipped_yaml():
    return {name: gzip.decompress((YAML / (name + ".gz")).read_bytes()).decode() for name in FILES}


def edited(texts, edit):
    """The edit applied exactly as tools/torchgen-judge.py applies it."""
    return apply_edit(texts, edit)


def write(texts, folder):
    folder.mkdir()
    for name, text in texts.items():
        (folder / name).write_text(text)


def entry_lines(text, needle, start):
    """The lines of the YAML entry whose first line starts with `needle`
    (searched from `start`): a refusal may name the entry or a line in it."""
    at = text.find(needle, start)
    assert at >= 0, needle
    first = text.count("\n", 0, at) + 1
    following = [text.find(marker, at + 1) for marker in ("\n- func:", "\n- name:", "\n- tag:")]
    end = min([f for f in following if f >= 0], default=len(text))
    return range(first, text.count("\n", 0, end) + 2)


def run(binary, *args):
    return subprocess.run([binary, *args], capture_output=True, text=True, timeout=120)


def judge(binary, texts, edit, verdict):
    problems = []
    if "base" in edit:
        texts = edited(texts, {"id": edit["id"], "steps": edit["base"]})
    with tempfile.TemporaryDirectory() as tmp:
        base, change = pathlib.Path(tmp) / "base", pathlib.Path(tmp) / "change"
        refused = verdict["verdict"] == "refused"
        if not refused:
            write(texts, base)
        after = edited(texts, edit)
        write(after, change)
        # A refusal needs no registry and no base: the YAML's lint finds it (half the cost).
        base_args = [] if refused else ["--base", "builtin:2.14.1", "--base", f"torchgen:{base}"]
        checked = run(binary, "check", *([] if refused else ["builtin:2.14.1"]), f"torchgen:{change}", *base_args,
                      "--format", "json")
        if checked.returncode == 2:
            return [f"check refused its input: {checked.stderr.strip()}"]
        findings = json.loads(checked.stdout)["findings"]
        refusals = [f for f in findings if f["rule"] == "torchgen-refusal"]
        # YAML that does not parse: torchgen's yaml loader raises (a ScannerError, or a
        # ComposerError for a second document), dispatchctl reports the load-error its README
        # promises for such a file, at the same line.
        if verdict["verdict"] == "refused" and verdict["error"].startswith(("yaml.scanner.", "yaml.parser.",
                                                                            "yaml.composer.")):
            refusals += [f for f in findings if f["rule"] == "load-error"]
        shown = run(binary, "show", "aten::add.Tensor", "-m", "builtin:2.14.1", "-m", f"torchgen:{change}")
        if refused:
            file = edit.get("refused_in", edit["file"])
            appended = any("append" in step and step.get("file", edit["file"]) == file
                           for step in edit.get("steps", [edit]))
            appended_at = len(texts[file]) if appended else 0
            lines = entry_lines(after[file], edit["at"], appended_at)
            where = f"{change / file}:{lines[0]}-{lines[-1]}"
            if not any(f["location"]["file"] == str(change / file) and f["location"]["line"] in lines
                       for f in refusals):
                got = [(f["location"]["file"], f["location"]["line"], f.get("kind")) for f in refusals]
                problems.append(f"torchgen refused ({verdict['error'].splitlines()[0][:160]}); "
                                f"check has no torchgen-refusal in {where}: {got}")
            named = [f"{change / file}:{line}:" for line in lines]
            if shown.returncode != 2 or len(shown.stderr.strip().splitlines()) != 1 \
                    or not any(n in shown.stderr for n in named):
                problems.append(f"show should refuse with one line naming a line in {where}: "
                                f"exit {shown.returncode}, stderr {shown.stderr.strip()[:300]!r}")
        else:
            if refusals:
                problems.append(f"torchgen accepted; check calls it refused: {refusals[0]['message'][:200]}")
            if shown.returncode != 0:
                problems.append(f"torchgen accepted; show exits {shown.returncode}: {shown.stderr.strip()[:300]}")
            if "costs" not in verdict:
                return [f"real-2.14.1.json has no generated costs for {edit['id']}: re-run tools/torchgen-judge.py"]
            # Costs are located and sorted like every other finding: at a line of the
            # edited YAML (the entry of the operator they cost), in file and line order.
            located = [(f["location"]["file"], f["location"].get("line", 0)) for f in findings]
            unlocated = [f"{f['rule']} {f['operator']}" for f, (file, line) in zip(findings, located)
                         if not file.startswith(str(change) + "/") or line <= 0]
            if unlocated:
                problems.append(f"findings without a line of the edited YAML: {unlocated}")
            if located != sorted(located):
                problems.append(f"findings not in file and line order: {located}")
            expected = sorted((c["rule"], c["operator"]) for c in verdict["costs"])
            got = sorted((f["rule"], op) for f in findings for op in [f["operator"], *f.get("covers", [])])
            if expected != got:
                problems.append(f"with --base the findings should be {expected}, got {got}")
    return problems


def unique_keys(pairs):
    """A JSON object without a repeated key (json.loads would keep the last one silently)."""
    keys = [k for k, _ in pairs]
    repeated = sorted({k for k in keys if keys.count(k) > 1})
    if repeated:
        raise ValueError(f"repeated keys: {', '.join(repeated)}")
    return dict(pairs)


def main():
    args = sys.argv[1:]
    every = 1
    if "--every" in args:  # the sanitized build judges every Nth edit: ASan makes each run ~5x slower
        at = args.index("--every")
        every = int(args[at + 1])
        del args[at:at + 2]
    corpus = ""
    if "--corpus" in args:
        at = args.index("--corpus")
        corpus = args[at + 1] + "-"
        del args[at:at + 2]
    binary, only = args[0], set(args[1:])
    edits = json.loads((HERE / f"edits{'-' + corpus[:-1] if corpus else ''}.json").read_text())["edits"]
    verdicts = json.loads((HERE / f"real-{corpus}2.14.1.json").read_text(), object_pairs_hook=unique_keys)["verdicts"]
    # An id names one edit of its corpus: a second edit of the id would be judged by the
    # first one's verdict (a verdict is stored by id).
    repeated = sorted(i for i, n in collections.Counter(e["id"] for e in edits).items() if n > 1)
    if repeated:
        print(f"FAIL edit ids repeated in the corpus: {', '.join(repeated)}")
        return 1
    texts = shipped_yaml()
    jobs = [e for e in edits if e["id"] in verdicts and (not only or e["id"] in only)][::every]
    failed = gaps = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        results = pool.map(lambda e: (e, judge(binary, texts, e, verdicts[e["id"]])), jobs)
        for edit, problems in results:
            verdict = verdicts[edit["id"]]["verdict"]
            # A `known_gap` is a disagreement the corpus records (with why) rather than hides;
            # one that starts to agree must lose its mark.
            gap = "known_gap" in edit
            if gap and not problems:
                problems = [f"agrees now: drop its known_gap ({edit['known_gap']})"]
            status = "gap " if gap and problems and not problems[0].startswith("agrees now") else \
                "FAIL" if problems else "ok  "
            print(f"{status} {edit['id']} (torchgen: {verdict})")
            for problem in problems:
                print(f"     {problem}")
            failed += bool(problems) and status == "FAIL"
            gaps += status == "gap "
    print(f"{len(jobs) - failed - gaps}/{len(jobs)} edits judged as the real torchgen 2.14.1 does"
          f"{f' ({gaps} known gaps)' if gaps else ''}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
