#!/usr/bin/python3
"""`trace` never overclaims (issue 22): every recorded real call
(real_calls_1.13.1.json and real_calls_held_out_1.13.1.json, recorded by
record_real_calls.py from Debian's torch 1.13.1) is traced over builtin:1.13.1
in one `dispatchctl trace --calls` run per file.

Checked:
- the record's trace flags build the real tensors: each argument's key set in
  the trace equals the one real PyTorch gave the tensor;
- no definite verdict is wrong: a "raised" trace (exit 1 for that call) must be
  a call that raised, with PyTorch's exception type and first line (or, after
  a generated structured composite, an `error_caveat`: its meta function runs
  first and may raise its own text); a "completed" trace that is not
  `assumed` must be a call that returned;
- exactly RATCHET[file] of the errors the dispatcher and the generated kernels
  cause (classified below, from PyTorch's message text) are predicted with
  PyTorch's exact first line: fewer is a regression, more a gain to record by
  raising the ratchet (a share would let a few predictions vanish unnoticed).
Assumed returns ("returns, if the kernel does": the kernel's own code
decides) make no claim and are counted.

Which real errors the dispatcher and torchgen's generated kernels cause, by
the first line PyTorch prints (each text is PyTorch's own, in the file named):
- "Could not run 'OP' with arguments from the 'KEY' backend." — the
  dispatcher's missing-kernel error (aten/src/ATen/core/dispatch/OperatorEntry.cpp
  reportError) — when OP is the operator called or one that torchgen's
  generated kernels call from it (the golden's "generated_calls", recorded
  from the real torchgen: a structured op's generated composite calls OP.out,
  an autogen'd out= kernel the functional op, transitively). The same error
  on an operator that a hand-written kernel chose to call (sum -> sum.dim_IntList,
  dropout -> bernoulli_) is that kernel's doing: not counted.
- "There were no tensor arguments to this function" (reportError, Undefined).
- the ambiguous AutogradOther kernel's and a called fallthrough's INTERNAL
  ASSERTs (aten/src/ATen/core/boxing/KernelFunction.cpp).
- "a leaf Variable that requires grad is being used in an in-place operation."
  (torch/csrc/autograd/VariableTypeUtils.h check_inplace, in the generated
  VariableType kernels of in-place operators). This and the next three only
  where the operator's ADInplaceOrView and AutogradCPU kernels are torchgen's
  (the golden's "autograd_kernels", from the real _dispatch_dump_table): the
  same texts from VariableTypeManual.cpp (copy_) are hand-written kernels'.
- "Inplace update to inference tensor outside InferenceMode is not allowed."
  (c10/core/TensorImpl.h VariableVersion::bump, called by the generated
  ADInplaceOrView and VariableType kernels' increment_version).
- "OP(): functions with out=... arguments don't support automatic
  differentiation, but one of the arguments requires grad." (VariableTypeUtils.h
  throw_error_out_requires_grad, in the generated VariableType kernels of out= ops).
- "The backward pass for this operation requires the 'ARG' tensor to be
  strided" (tools/autograd/gen_variable_type.py: a generated VariableType
  kernel saving a sparse tensor's strides).
- the raising Meta backend fallback (2.x; "... with arguments from the 'Meta' backend")
  and the math-bit fallbacks' refusals (aten/src/ATen/native/MathBitsFallback.h).
Every other error is raised inside a hand-written kernel (a backend kernel, a
hand-written composite, a meta function, the autocast wrappers' casts): only
that kernel's code decides, and trace must not claim to know it.
Composite-caused raises: a missing-kernel error on an operator other than the
one called and than those torchgen's generated kernels reach from it (the
raising operator, in PyTorch's own text, is one a hand-written kernel chose to
call: std on a sparse tensor raises at aten::std.correction). Per set, how many
trace predicts definitely with PyTorch's first line is ratcheted exactly
(COMPOSITE_PREDICTED): a rise is news to record, a fall a regression.
usage: check_verdicts.py DISPATCHCTL [GOLDEN ...] [--list missed|wrong|assumed|composite]
(GOLDEN: a file here or a path; the default is the two trace sets; the model is
builtin:RELEASE, RELEASE from the file name's end.)"""
import gzip
import json
import pathlib
import re
import subprocess
import sys
import tempfile

here = pathlib.Path(__file__).parent
# Errors predicted with PyTorch's first line, of 561, 585, 67, 83 and 83 (--list missed names the rest).
RATCHET = {"real_calls_1.13.1.json": 557, "real_calls_held_out_1.13.1.json": 577,
           "real_calls_composite_1.13.1.json.gz": 67, "real_calls_composite_2.14.1.json.gz": 83,
           "real_calls_composite_2.6.0+cuda.json.gz": 83}
# Composite-caused raises predicted definitely with PyTorch's first line, per set: exact.
COMPOSITE_PREDICTED = {
    "real_calls_1.13.1.json": 67,  # of 111
    "real_calls_held_out_1.13.1.json": 106,  # of 155
    "real_calls_composite_1.13.1.json.gz": 191,  # of 321
    "real_calls_composite_2.14.1.json.gz": 363,  # of 591
    "real_calls_composite_2.6.0+cuda.json.gz": 392,  # of 591 (0 before 2.6.0's kinds sections)
}

# A set recorded from another build of the model's release: trixie's CPU-only 2.6.0 for
# builtin:2.6.0+cuda (a CUDA build; the hand-written kernels are the same code). The
# dispatcher's missing-kernel text lists the backends the operator has kernels for, and the
# CUDA build's list adds its CUDA backend keys: those are left out of both lines (same_line),
# the rest of the line must be equal.
OTHER_BUILD = {"real_calls_composite_2.6.0+cuda.json.gz": re.compile(r"^(Sparse|SparseCsr|Quantized|NestedTensor)?CUDA$")}
AVAILABLE = re.compile(r"(is only available for these backends: \[)([^\]]*)(\])")
MISSING_KERNEL = re.compile(r"^Could not run '([^']+)' with arguments from the '([^']+)' backend\.")
DISPATCHER_ERRORS = [
    re.compile(r"^There were no tensor arguments to this function"),
    re.compile(r"ambiguous_autogradother_kernel\(\)|fallthrough_kernel was executed"),
    re.compile(r"(conjugate|negative) (bit|view)", re.IGNORECASE),
]
# Raised by the autograd and ADInplaceOrView kernels: torchgen's generated ones
# unless the real table names VariableTypeManual.cpp (hand-written: copy_).
AUTOGRAD_KERNEL_ERRORS = [
    re.compile(r"^a leaf Variable that requires grad is being used in an in-place operation\.$"),
    re.compile(r"^Inplace update to inference tensor outside InferenceMode is not allowed\."),
    re.compile(r"^\w+\(\): functions with out=\.\.\. arguments don't support automatic differentiation"),
    re.compile(r"^The backward pass for this operation requires the '\w+' tensor to be strided"),
]


def reached_by_generated_kernels(op, generated_calls):
    reached, todo = {op}, [op]
    while todo:
        for callee in generated_calls.get(todo.pop(), []):
            if callee not in reached:
                reached.add(callee)
                todo.append(callee)
    return reached


def dispatcher_error(call, golden):
    """Whether the real error is one the dispatcher or a generated kernel raises (see above)."""
    line = call["first_line"]
    missing = MISSING_KERNEL.match(line)
    if missing:
        return missing.group(1) in reached_by_generated_kernels(call["operator"], golden["generated_calls"])
    if any(p.search(line) for p in AUTOGRAD_KERNEL_ERRORS):
        kernels = golden["autograd_kernels"][call["operator"]].values()
        return all("/autograd/generated/" in k or "fallthrough" in k for k in kernels)
    return any(p.search(line) for p in DISPATCHER_ERRORS)


def composite_caused(call, golden):
    """Whether the real error is a missing kernel of an operator a hand-written kernel called (see above)."""
    missing = MISSING_KERNEL.match(call["first_line"]) if not call["returns"] else None
    return bool(missing) and missing.group(1) not in reached_by_generated_kernels(call["operator"],
                                                                                    golden["generated_calls"])


def same_line(predicted, real, build_only_keys):
    """PyTorch's first line, predicted by trace; for a set of another build (OTHER_BUILD),
    a missing-kernel line's list is compared without the CUDA backend keys: the CUDA build
    has kernels there that the CPU-only build has only where a composite kernel fills them."""
    if build_only_keys is None:
        return predicted == real

    def without(line):
        return AVAILABLE.sub(lambda m: m.group(1) + ", ".join(
            k for k in m.group(2).split(", ") if not build_only_keys.match(k)) + m.group(3), line)
    return without(predicted) == without(real)


def request(call):
    """The call as a line of `trace --calls`: its fields are named after trace's flags."""
    line = {"operator": call["operator"], "tensors": call["tensors"]}
    flags = list(call["flags"])
    while flags:
        flag = flags.pop(0)
        if flag == "--autocast":
            line.setdefault("autocast", []).append(flags.pop(0))
        elif flag in ("--no-grad", "--inference-mode"):
            line[flag[2:].replace("-", "_")] = True
        else:
            sys.exit(f"FAIL: {flag}: a trace flag this checker does not know")
    return line


def trace_all(dispatchctl, calls, model):
    """One `trace --calls` run over every call; its results, one per call, in order."""
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl") as requests:
        for call in calls:
            requests.write(json.dumps(request(call)) + "\n")
        requests.flush()
        done = subprocess.run([dispatchctl, "trace", "--calls", requests.name, "-m", model],
                              capture_output=True, text=True)
    if done.returncode not in (0, 1):
        sys.exit(f"FAIL: trace --calls exited {done.returncode}: {done.stderr}")
    results = [json.loads(line) for line in done.stdout.splitlines()]
    if len(results) != len(calls):
        sys.exit(f"FAIL: trace --calls gave {len(results)} results for {len(calls)} calls")
    return results


def single_calls_agree(dispatchctl, calls, results, model, every=97):
    """`trace OP --tensor ... FLAGS` alone gives what the batch gave, exit 1
    exactly for a raise (a sample: one process per call is what --calls saves)."""
    problems = []
    for call, batch in list(zip(calls, results))[::every]:
        args = [dispatchctl, "trace", call["operator"], "-m", model, "--format", "json"]
        done = subprocess.run(args + call["tensor_args"] + call["flags"], capture_output=True, text=True)
        what = " ".join(args[2:] + call["tensor_args"] + call["flags"])
        if done.returncode != (1 if batch["outcome"] == "raised" else 0):
            problems.append(f"{what}: exits {done.returncode} for outcome {batch['outcome']}")
        elif json.loads(done.stdout) != batch:
            problems.append(f"{what}: the single trace differs from the --calls one")
    return problems


def check(dispatchctl, golden_name, listing):
    """The checks above over one golden file; the problems found."""
    path = pathlib.Path(golden_name) if "/" in golden_name else here / golden_name
    golden_name = path.name
    other_build = OTHER_BUILD.get(golden_name)
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt") as f:
        golden = json.load(f)
    model = "builtin:" + re.search(r"_(\d+\.\d+\.\d+(?:\+\w+)?)\.json", golden_name).group(1)
    calls = golden["calls"]
    for call in calls:
        call["tensor_args"] = [a for t in call["tensors"] for a in ("--tensor", t)]
    wrong, missed, assumed_calls, composite_missed = [], [], [], []
    composite_total = composite_predicted = 0
    definite = assumed = caveated = 0
    dispatcher_total = dispatcher_predicted = kernel_errors = 0
    results = trace_all(dispatchctl, calls, model)
    for call, trace in zip(calls, results):
        what = " ".join([call["operator"]] + call["tensor_args"] + call["flags"])
        traced_keys = [a["keys"] for a in trace["calls"][0]["arguments"]]
        if traced_keys != call["keys"]:
            wrong.append(f"{what}: trace's tensors have keys {traced_keys}, PyTorch's {call['keys']}")
        from_dispatcher = not call["returns"] and dispatcher_error(call, golden)
        dispatcher_total += from_dispatcher
        kernel_errors += not call["returns"] and not from_dispatcher
        real = "returns" if call["returns"] else f"{call['error_type']}: {call['first_line'][:100]}"
        if trace["outcome"] == "raised":
            definite += 1
            hop = trace["hops"][-1]
            first = hop["error"].split("\n")[0]
            if call["returns"]:
                wrong.append(f"{what}: trace says {hop['error_type']}, PyTorch returns")
            elif hop["error_type"] == call["error_type"] and same_line(first, call["first_line"], other_build):
                dispatcher_predicted += from_dispatcher
            elif "error_caveat" in trace:
                # The raise is certain; its text was said to depend on a meta
                # function that runs first, which raised its own.
                caveated += 1
            else:
                wrong.append(f"{what}: trace says {hop['error_type']}: {first[:100]}; PyTorch {real}")
        elif trace["outcome"] == "completed" and not trace["assumed"]:
            definite += 1
            if not call["returns"]:
                wrong.append(f"{what}: trace says it returns, PyTorch raises {real}")
        else:
            assumed += 1
            assumed_calls.append(f"{what}: PyTorch {real}")
        predicted = trace["outcome"] == "raised" and same_line(trace["hops"][-1]["error"].split("\n")[0],
                                                               call["first_line"], other_build) \
            and trace["hops"][-1]["error_type"] == call["error_type"] if not call["returns"] else False
        if from_dispatcher and not predicted:
            missed.append(f"{what}: PyTorch {real}")
        if composite_caused(call, golden):
            composite_total += 1
            composite_predicted += predicted
            if not predicted:
                composite_missed.append(f"{what}: PyTorch {real}")
    wrong += single_calls_agree(dispatchctl, calls, results, model)
    share = dispatcher_predicted / dispatcher_total if dispatcher_total else 1.0
    raised = sum(not c["returns"] for c in calls)
    print(f"{golden_name}: {len(calls)} real calls ({raised} raise): {definite} definite verdicts, {len(wrong)} wrong, "
          f"{assumed} assumed; {dispatcher_predicted} of {dispatcher_total} errors the dispatcher and the "
          f"generated kernels cause predicted with PyTorch's first line ({100 * share:.1f}%); "
          f"{kernel_errors} errors raised inside hand-written kernels; {caveated} certain raises whose text "
          f"code that runs first decided (trace's error_caveat)")
    if dispatcher_predicted != RATCHET[golden_name]:
        wrong.append(f"{dispatcher_predicted} of the dispatcher's and generated kernels' errors predicted, the "
                     f"ratchet is {RATCHET[golden_name]}: " +
                     ("a regression" if dispatcher_predicted < RATCHET[golden_name] else "raise the ratchet"))
    print(f"{golden_name}: composite-caused raises: {composite_total}, predicted definitely with PyTorch's first "
          f"line: {composite_predicted}")
    expected = COMPOSITE_PREDICTED.get(golden_name)
    if expected is not None and composite_predicted != expected:
        wrong.append(f"{golden_name}: {composite_predicted} composite-caused raises predicted, the ratchet is exactly "
                     f"{expected} (a rise: set COMPOSITE_PREDICTED to it)")
    for line in {"missed": missed, "wrong": wrong, "assumed": assumed_calls,
                 "composite": composite_missed}.get(listing, []):
        print(f"{listing}: {line}")
    return wrong


def main():
    dispatchctl, rest = sys.argv[1], sys.argv[2:]
    listing = None
    if "--list" in rest:
        listing = rest[rest.index("--list") + 1]
        del rest[rest.index("--list"):rest.index("--list") + 2]
    # The set trace's model was fixed against, and a set of other operators held out meanwhile.
    wrong = []
    for golden_name in rest or ("real_calls_1.13.1.json", "real_calls_held_out_1.13.1.json"):
        wrong += check(dispatchctl, golden_name, listing)
    for w in wrong:
        print("FAIL:", w)
    sys.exit(1 if wrong else 0)


if __name__ == "__main__":  # bench/run.py imports request()
    main()
