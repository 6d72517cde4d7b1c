#!/usr/bin/python3
"""One cause, one finding (issue 31): corpus edits whose one cause used to
give several findings, checked as check_verdicts.py runs them (with --base,
or without for a refused edit: then the unchanged YAML's own findings are not
the edit's), each against what PyTorch does:
- a deleted formula (erfinv): one finding naming the variants it covers
  (PyTorch writes one functional formula for erfinv, erfinv_ and erfinv.out);
- a new operator without a formula whose out= variant has TensorOptions, or a
  mutable one whose functional torchgen generates: one finding (gen_variable_type
  matches them to one formula by FunctionSchema.signature(), which drops
  TensorOptions and reads a mutable input as a return);
- a new view op with its _copy: one finding for the view, covering the _copy
  (load_derivatives' add_view_copy_derivatives gives the _copy the view's formula);
  a generated out= (`autogen: X_copy.out`) a note: gen_variable_type gives a
  generated out= no formula, as for ~490 of PyTorch 2.14.1's own;
- a typo'd formula input (`input:` for `self:`), a deleted out= others
  delegate to, an illegal `variants:` spelling, a formula whose schema names no
  function, an in-place operator whose functional's default changed, a
  CompositeImplicitAutograd kernel torchgen refuses on an entry, an in-place and
  out= operator without their functional, a functional renamed or changed under
  its formula and out= variant, an operator changed under two deprecated.yaml
  entries: one error, no cascade (torchgen stops at the first assert);
- a CIA -> CEA move: no finding about keys the decomposition failed on
  before too (NestedTensor).
Under ASan+UBSan (~5x slower) ctest takes every Nth case (--every N), as the
corpora do. Usage: one_cause.py [--every N] DISPATCHCTL"""
import json
import pathlib
import sys
import tempfile

import check_verdicts as cv

HERE = pathlib.Path(__file__).resolve().parent
CORPORA = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth")


def identity(f):
    return f["rule"], f["operator"], f.get("key"), f.get("kind")


def findings_of(binary, texts, edit, with_base, unchanged):
    with tempfile.TemporaryDirectory() as tmp:
        base, change = pathlib.Path(tmp) / "base", pathlib.Path(tmp) / "change"
        cv.write(texts, base)
        cv.write(cv.edited(texts, edit), change)
        args = ["builtin:2.14.1", f"torchgen:{change}", "--base", "builtin:2.14.1", "--base", f"torchgen:{base}"] \
            if with_base else [f"torchgen:{change}"]
        run = cv.run(binary, "check", *args, "--format", "json")
        assert run.returncode != 2, run.stderr
        return [f for f in json.loads(run.stdout)["findings"] if with_base or identity(f) not in unchanged]


def serious(findings):
    return [f for f in findings if f["severity"] in ("error", "warning")]


def one(rule, operator, covers=()):
    """Exactly one error or warning: RULE at OPERATOR, covering COVERS."""
    def test(findings):
        fs = serious(findings)
        return len(fs) == 1 and (fs[0]["rule"], fs[0]["operator"]) == (rule, operator) \
            and sorted(fs[0].get("covers", [])) == sorted(covers)
    return test


def notes(*operators):
    """...and a note for each of OPERATORS (generated out= variants)."""
    def test(findings):
        return sorted(f["operator"] for f in findings if f["severity"] == "note") == sorted(operators)
    return test


def both(*tests):
    return lambda findings: all(t(findings) for t in tests)


def one_refusal(kind):
    return lambda fs: [(f["rule"], f.get("kind")) for f in serious(fs)] == [("torchgen-refusal", kind)]


CASES = [
    # (corpus, edit, with --base, test, what PyTorch does)
    ("first", "erfinv-formula-deleted", True,
     one("backward-not-implemented", "aten::erfinv", ["aten::erfinv.out", "aten::erfinv_"]),
     "one backward-not-implemented for erfinv, covering erfinv_ and erfinv.out"),
    ("first", "derivative-unknown-input", False, lambda fs: [f["severity"] for f in serious(fs)] == ["error"],
     "one error, no cascade"),
    ("second", "cumsum-formula-input-typo", False, lambda fs: [f["severity"] for f in serious(fs)] == ["error"],
     "one error, no cascade"),
    ("first", "moved-to-cea-without-formula", True, lambda fs: not any("NestedTensor" in f["message"] for f in fs),
     "a CIA -> CEA move says nothing of NestedTensor keys the decomposition failed on before"),
    ("first", "new-view-with-copy", True,
     one("backward-not-implemented", "aten::my_narrow_view", ["aten::my_narrow_view_copy"]),
     "one finding for the view, covering its _copy (add_view_copy_derivatives)"),
    ("eighth", "new-view-with-copy", True,
     both(one("backward-not-implemented", "aten::swapdims2", ["aten::swapdims2_copy"]), notes("aten::swapdims2_copy.out")),
     "one finding for the view covering its _copy; the generated _copy.out a note"),
    ("fourth", "view-copy-ceanf", True,
     both(one("backward-not-implemented", "aten::my_band", ["aten::my_band_copy"]), notes("aten::my_band_copy.out")),
     "one finding for the view covering its _copy; the generated _copy.out a note"),
    ("fourth", "view-overload-optional-int-arg", True,
     both(one("backward-not-implemented", "aten::select.opt", ["aten::select_copy.opt"]),
          notes("aten::select_copy.opt_out")),
     "one finding for the view overload covering its _copy; the generated out= a note"),
    ("sixth", "factory-tensor-options", True,
     both(one("backward-not-implemented", "aten::my_arange_like"), notes("aten::my_arange_like.out")),
     "one finding for the new operator; its generated out= a note"),
    ("fourth", "mutable-op-autogen", True,
     both(one("backward-not-implemented", "aten::_my_update_stats", ["aten::_my_update_stats_functional"]),
          notes("aten::_my_update_stats.out")),
     "one finding for the mutable operator, covering the functional it generates (one formula serves it)"),
    ("sixth", "mutable-op-autogen", True,
     both(one("backward-not-implemented", "aten::_my_update_stats", ["aten::_my_update_stats_functional"]),
          notes("aten::_my_update_stats.out")),
     "one finding for the mutable operator, covering the functional it generates (one formula serves it)"),
    ("sixth", "remove-delegated-out", False, one_refusal("delegate-missing"),
     "one refusal: the missing delegate, naming heaviside_ too (not also heaviside_ as ungrouped)"),
    ("sixth", "variants-no-space", False, one_refusal("field-value"),
     "one refusal: the variants' spelling (not also logit.out as lone for the Python bindings)"),
    ("sixth", "default-functional-only", False, one_refusal("autogen-mismatch"),
     "one refusal: autogen: logit is missing (not also a registry error for logit generated twice)"),
    ("first", "structured-out-cia", False, one_refusal("redundant-cia"),
     "one refusal (not also a warning about the CompositeImplicitAutograd kernel torchgen refuses)"),
    ("first", "structured-out-with-cia", False, one_refusal("structured-composite"),
     "one refusal (not also a warning about the CompositeImplicitAutograd kernel torchgen refuses)"),
    ("first", "formula-schema-defaults-rewritten", False, one_refusal("derivative-no-function"),
     "one refusal: the formula names no function (not also a formula on a CompositeImplicitAutograd operator)"),
    ("fourth", "cia-inplace-and-out", False, one_refusal("functional-required"),
     "one refusal: the functional my_clip_ and my_clip.out need (not also my_clip.out's Python binding)"),
    ("second", "index-select-op-deleted", False, one_refusal("derivative-no-function"),
     "one refusal: the renamed functional the formula and index_select.out both name"),
    ("eighth", "narrow-copy-int-start", False, one_refusal("derivative-no-function"),
     "one refusal: the changed functional the formula and narrow_copy.out both name"),
    ("seventh", "nf-sspaddmm-beta-float", False, one_refusal("deprecated-no-match"),
     "one refusal: sspaddmm's beta no longer fits either deprecated.yaml entry calling it"),
    ("seventh", "nf-sspaddmm-required-flag", False, one_refusal("deprecated-no-match"),
     "one refusal: sspaddmm's new required argument fits neither deprecated.yaml entry calling it"),
    ("seventh", "nf-sspaddmm-deleted-with-deprecated", True,
     one("operator-removed", "aten::sspaddmm", ["aten::sspaddmm.out"]),
     "one operator-removed for sspaddmm, covering sspaddmm.out (torchgen's costs: both gone)"),
]


def main():
    args = sys.argv[1:]
    every = 1
    if "--every" in args:
        at = args.index("--every")
        every = int(args[at + 1])
        del args[at:at + 2]
    binary = args[0]
    cases = CASES[::every]
    texts = cv.shipped_yaml()
    edits = {}
    for corpus in CORPORA:
        name = "edits.json" if corpus == "first" else f"edits-{corpus}.json"
        edits.update({(corpus, e["id"]): e for e in json.loads((HERE / name).read_text())["edits"]})
    with tempfile.TemporaryDirectory() as tmp:
        cv.write(texts, pathlib.Path(tmp) / "y")
        run = cv.run(binary, "check", f"torchgen:{tmp}/y", "--format", "json")
        unchanged = {identity(f) for f in json.loads(run.stdout)["findings"]}
    problems = []
    for corpus, edit_id, with_base, test, what in cases:
        findings = findings_of(binary, texts, edits[(corpus, edit_id)], with_base, unchanged)
        ok = test(findings)
        print(f"{'ok  ' if ok else 'FAIL'} {corpus}/{edit_id}: {what}")
        if not ok:
            problems.append(edit_id)
            shown = [(f["rule"], f["severity"], f["operator"], f.get("kind"), f.get("covers", [])) for f in findings]
            print(f"     got {shown}")
    print(f"{len(cases) - len(problems)}/{len(cases)} causes give one finding as they should")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
