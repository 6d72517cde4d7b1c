#!/usr/bin/python3
"""One cause, one finding (issue 31): corpus edits whose one cause used to
give several findings, checked as check_verdicts.py runs them (with --base,
or without for a refused edit), each against what PyTorch does:
- a deleted formula (erfinv): one finding naming the variants it covers
  (PyTorch writes one functional formula for erfinv, erfinv_ and erfinv.out);
- a typo'd formula input (`input:` for `self:`): one error, no cascade
  (gen_autograd stops at the first assert);
- a new view op with its _copy and _copy.out: the _copy.out's finding a note
  (33 of PyTorch 2.14.1's own *_copy.out have no formula either);
- a CIA -> CEA move: no finding about keys the decomposition failed on
  before too (NestedTensor).
Usage: one_cause.py DISPATCHCTL"""
import json
import pathlib
import sys
import tempfile

import check_verdicts as cv

HERE = pathlib.Path(__file__).resolve().parent


def findings_of(binary, texts, edit, with_base):
    with tempfile.TemporaryDirectory() as tmp:
        base, change = pathlib.Path(tmp) / "base", pathlib.Path(tmp) / "change"
        cv.write(texts, base)
        cv.write(cv.edited(texts, edit), change)
        args = ["builtin:2.14.1", f"torchgen:{change}", "--base", "builtin:2.14.1", "--base", f"torchgen:{base}"] \
            if with_base else [f"torchgen:{change}"]
        run = cv.run(binary, "check", *args, "--format", "json")
        assert run.returncode != 2, run.stderr
        return json.loads(run.stdout)["findings"]


def main():
    binary = sys.argv[1]
    texts = cv.shipped_yaml()
    edits = {}
    for name in ("edits.json", "edits-second.json"):
        edits.update({e["id"]: e for e in json.loads((HERE / name).read_text())["edits"]})
    problems = []

    def expect(edit_id, with_base, test, what):
        findings = findings_of(binary, texts, edits[edit_id], with_base)
        shown = [(f["rule"], f["severity"], f["operator"], f.get("covers", [])) for f in findings]
        ok = test(findings)
        print(f"{'ok  ' if ok else 'FAIL'} {edit_id}: {what}")
        if not ok:
            problems.append(edit_id)
            print(f"     got {shown}")

    expect("erfinv-formula-deleted", True,
           lambda fs: len(fs) == 1 and sorted(fs[0].get("covers", [])) == ["aten::erfinv.out", "aten::erfinv_"],
           "one backward-not-implemented for erfinv, covering erfinv_ and erfinv.out")
    for typo in ("derivative-unknown-input", "cumsum-formula-input-typo"):
        expect(typo, False, lambda fs: [f["severity"] for f in fs if f["severity"] == "error"] == ["error"],
               "one error, no cascade")
    expect("new-view-with-copy", True,
           lambda fs: all(f["severity"] == "note" for f in fs if f["operator"].endswith("_copy.out"))
           and not any(f["severity"] == "error" for f in fs),
           "the new view's _copy.out without a formula is a note")
    expect("moved-to-cea-without-formula", True,
           lambda fs: not any("NestedTensor" in f["message"] for f in fs),
           "a CIA -> CEA move says nothing of NestedTensor keys the decomposition failed on before")
    print(f"{5 - len(problems)}/5 causes give one finding as they should")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
