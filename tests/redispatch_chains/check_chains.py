#!/usr/bin/python3
"""`then: "redispatch"` is the manifest contract (issue 22, item 4): every chain
real PyTorch ran (chains_2.14.1.json, recorded by record_chains.py with logging
kernels that pass the call on with ks & FULL_AFTER(row), no guard) is traced
over builtin:2.14.1 with the same kernels declared `then: "redispatch"` (those
at backend keys `then: "return"`). The rows trace visits must be the rows
PyTorch ran, and a call PyTorch refused must raise with PyTorch's first line.
usage: check_chains.py DISPATCHCTL WORKDIR"""
import json
import pathlib
import subprocess
import sys

here = pathlib.Path(__file__).parent
dispatchctl, workdir = sys.argv[1], pathlib.Path(sys.argv[2])
golden = json.loads((here / "chains_2.14.1.json").read_text())
# The recorder's RETURNING_KEYS: kernels there compute the result.
RETURNING_KEYS = {"CPU", "SparseCPU", "SparseCsrCPU", "QuantizedCPU", "MkldnnCPU", "NestedTensorCPU", "Meta",
                  "CompositeImplicitAutograd", "CompositeExplicitAutograd"}

# The manifest is the recorder's registrations, written in the contract's words.
manifest = {"dispatchctl_manifest": 1, "torch_version": golden["torch_version"], "operators": [
    {"name": case["operator"], "schema": case["schema"],
     "kernels": [{"key": key, "kernel": f"log_{key}", "then": "return" if key in RETURNING_KEYS else "redispatch"}
                 for key in case["registered"]]}
    for case in golden["cases"]]}
workdir.mkdir(parents=True, exist_ok=True)
manifest_path = workdir / "chains.json"
manifest_path.write_text(json.dumps(manifest))

wrong = []
for case in golden["cases"]:
    args = [dispatchctl, "trace", case["operator"], "-m", "builtin:" + golden["torch_version"], "-m",
            str(manifest_path), "--format", "json"] + case["context"]
    for t in case["tensors"]:
        args += ["--tensor", t]
    done = subprocess.run(args, capture_output=True, text=True)
    what = f"{case['operator']} {case['registered']} {case['tensors']} {case['context']}"
    if done.returncode not in (0, 1):
        wrong.append(f"{what}: exit {done.returncode}: {done.stderr.strip()}")
        continue
    trace = json.loads(done.stdout)
    # The rows our logging kernels ran at: trace's hops at the registered kernels.
    rows = [h["row"] for h in trace["hops"] if h.get("kernel", "").startswith("log_")]
    if rows != case["rows"]:
        wrong.append(f"{what}: trace visits {rows}, PyTorch ran {case['rows']}")
    if case["returns"] != (trace["outcome"] == "completed"):
        last = trace["hops"][-1] if trace["hops"] else {}
        wrong.append(f"{what}: trace {trace['outcome']} ({last.get('error', '')[:90]}), "
                     f"PyTorch {'returns' if case['returns'] else case['first_line'][:90]}")
    elif not case["returns"]:
        first = trace["hops"][-1]["error"].split("\n")[0]
        if first != case["first_line"]:
            wrong.append(f"{what}: trace raises '{first[:100]}', PyTorch '{case['first_line'][:100]}'")
print(f"{len(golden['cases'])} real chains: {len(golden['cases']) - len(wrong)} agree")
for w in wrong:
    print("FAIL:", w)
sys.exit(1 if wrong else 0)
