#!/usr/bin/python3
"""Every suggested fix, applied, passes (issue 31).

For every edit of the corpora that the real torchgen 2.14.1 accepted, runs
`check --base` as check_verdicts.py does and takes each finding's `fix` (the
edits `check` suggests). Applied mechanically to the edited YAML, the fix
must make `check --base` pass: the finding gone and no finding the edit did
not already have. Each fixed YAML is also an edit of the `fixes` corpus
(edits-fixes.json: the corpus edit's steps and then the fix's, as line
steps), which tools/torchgen-judge.py runs through the real torchgen in sid
(real-fixes-2.14.1.json) and check_verdicts.py --corpus fixes compares with:
the fix passes torchgen too. This test fails when the fixes `check` suggests
now differ from edits-fixes.json (re-record: --write, then judge the new ones).
A fix's id is CORPUS/EDIT/RULE/OPERATOR (CORPUS `first` for edits.json):
an edit id is unique within its corpus only (check_verdicts.py refuses a
duplicate there), and seven repeat across corpora.
Usage: suggested_fixes.py DISPATCHCTL [--write] [[CORPUS/]EDIT_ID...]"""
import concurrent.futures
import json
import pathlib
import sys
import tempfile

import check_verdicts as cv

HERE = pathlib.Path(__file__).resolve().parent
CORPORA = ("", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth", "twelfth",
           "thirteenth", "eleventh", "fifteenth", "fourteenth")


def check(binary, texts, base_texts, tmp, name):
    base, change = pathlib.Path(tmp) / f"{name}-base", pathlib.Path(tmp) / name
    cv.write(base_texts, base)
    cv.write(texts, change)
    run = cv.run(binary, "check", "builtin:2.14.1", f"torchgen:{change}", "--base", "builtin:2.14.1",
                 "--base", f"torchgen:{base}", "--format", "json")
    if run.returncode == 2:
        return change, None, run.stderr.strip()
    return change, json.loads(run.stdout)["findings"], ""


def identity(finding):
    return finding["rule"], finding["operator"], finding.get("key"), finding.get("kind")


def fix_step(fix, change):
    """The fix's edits as line steps on the corpus' file names."""
    return [{"file": pathlib.Path(e["file"]).relative_to(change).as_posix(), "line": e["line"],
             "remove": e["remove"], "insert": e["insert"]} for e in fix["edits"]]


def fixes_of(binary, texts, corpus, edit):
    """[(fix edit, problems)] for the edit's findings with a fix. A fix's id is
    CORPUS/EDIT/RULE/OPERATOR: an edit id may repeat in another corpus."""
    base_texts = cv.edited(texts, {"id": edit["id"], "steps": edit["base"]}) if "base" in edit else texts
    after = cv.edited(base_texts, edit)
    out = []
    with tempfile.TemporaryDirectory() as tmp:
        change, findings, error = check(binary, after, base_texts, tmp, "change")
        if findings is None:
            return [({"id": f"{corpus}/{edit['id']}"}, [f"check refused the edit: {error}"])]
        for n, finding in enumerate(f for f in findings if "fix" in f):
            fix_id = f"{corpus}/{edit['id']}/{finding['rule']}/{finding['operator']}"
            steps = [dict(s, file=s.get("file", edit.get("file"))) for s in edit.get("steps", [edit])]
            for s in steps:
                s.pop("id", None), s.pop("at", None), s.pop("costs", None), s.pop("known_gap", None)
            fixed = {"id": fix_id, "fix": finding["fix"]["description"],
                     "steps": steps + fix_step(finding["fix"], change)}
            if "base" in edit:
                fixed["base"] = edit["base"]
            _, again, error = check(binary, cv.edited(base_texts, fixed), base_texts, tmp, f"fixed{n}")
            problems = []
            if again is None:
                problems.append(f"check refused the fixed YAML: {error}")
            else:
                before = {}
                for f in findings:
                    before[identity(f)] = before.get(identity(f), 0) + 1
                if any(identity(f) == identity(finding) for f in again):
                    problems.append(f"the fix ({finding['fix']['description']}) leaves the finding: "
                                    f"{finding['message'][:200]}")
                for f in again:
                    if before.get(identity(f), 0) == 0:
                        problems.append(f"the fix ({finding['fix']['description']}) brings a new finding: "
                                        f"{f['rule']} {f['operator']}: {f['message'][:200]}")
                    else:
                        before[identity(f)] -= 1
            out.append((fixed, problems))
    return out


def selected(corpus, edit_id, only):
    """An EDIT_ID argument selects the edit in every corpus; CORPUS/EDIT_ID only that corpus'."""
    return edit_id in only or f"{corpus}/{edit_id}" in only


def main():
    args = sys.argv[1:]
    write = "--write" in args
    binary, *only = [a for a in args if a != "--write"]
    texts = cv.shipped_yaml()
    jobs = []
    for corpus in CORPORA:
        suffix = f"-{corpus}" if corpus else ""
        edits = json.loads((HERE / f"edits{suffix}.json").read_text())["edits"]
        verdicts = json.loads((HERE / f"real{suffix}-2.14.1.json").read_text())["verdicts"]
        name = corpus or "first"
        # An edit without costs has no finding to fix (check_verdicts.py checks it has none).
        jobs += [(name, e) for e in edits if verdicts.get(e["id"], {}).get("verdict") == "accepted"
                 and verdicts[e["id"]].get("costs") and (not only or selected(name, e["id"], only))]
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        results = [r for rs in pool.map(lambda job: fixes_of(binary, texts, *job), jobs) for r in rs]
    stored_path = HERE / "edits-fixes.json"
    stored = {e["id"]: e for e in json.loads(stored_path.read_text())["edits"]} if stored_path.exists() else {}
    verdicts = json.loads((HERE / "real-fixes-2.14.1.json").read_text())["verdicts"] \
        if (HERE / "real-fixes-2.14.1.json").exists() else {}
    failed = 0
    for fixed, problems in results:
        if "steps" in fixed and fixed != stored.get(fixed["id"]) and not write:
            problems = problems + ["not in edits-fixes.json as suggested now: re-record (--write) and judge it "
                                   "with tools/torchgen-judge.py in sid"]
        real = verdicts.get(fixed["id"], {}).get("verdict")
        if "steps" in fixed and real not in (None, "accepted"):
            problems.append(f"the real torchgen 2.14.1 refuses the fixed YAML: "
                            f"{verdicts[fixed['id']]['error'].splitlines()[0][:200]}")
        print(f"{'FAIL' if problems else 'ok  '} {fixed['id']} (torchgen: {real or 'not judged'})")
        for problem in problems:
            print(f"     {problem}")
        failed += bool(problems)
    gone = [] if only else sorted(set(stored) - {f["id"] for f, _ in results})
    for fix_id in gone:
        print(f"FAIL {fix_id}: in edits-fixes.json but no longer suggested: re-record (--write)")
    if write:
        if only:  # the others as stored
            results = [(f, p) for f, p in results] + [(e, []) for i, e in stored.items()
                                                      if not selected(*i.split("/")[:2], only)]
        document = {"about": "Every fix `check --base` suggests for the corpora's accepted edits, applied: the edit's "
                             "steps, then the fix's line steps (replace `remove` lines from `line` by `insert`; "
                             "line numbers of the edited file). Written by suggested_fixes.py --write; "
                             "real-fixes-2.14.1.json is the real torchgen's verdict on each.",
                    "edits": [f for f, _ in results if "steps" in f]}
        stored_path.write_text(json.dumps(document, indent=1) + "\n")
        gone = []
    print(f"{len(results) - failed}/{len(results)} suggested fixes, applied, pass the gate")
    return 1 if failed or gone else 0


if __name__ == "__main__":
    sys.exit(main())
