"""Plans and runs the composite-call recording (docs/composite-calls.md) in worker processes
(composite_worker.py), bounded: a unit that hangs or kills its worker is recorded as nothing
(unknown) and the worker is restarted after it. Returns the `composite_calls` object."""

import json
import os
import subprocess
import sys
import time
from select import select as wait_readable  # (not `import select`: live_registry defines select)

from dispatchctl_exporter.composite_kernels import composite_kernels, generated_composites
from dispatchctl_exporter.composite_kinds import kinds_section, merge_kind_tallies
from dispatchctl_exporter.composite_recorder import entry_of, merge_tallies
from dispatchctl_exporter.composite_samples import import_op_db

UNIT_SECONDS = 20       # one sample of one kernel (SIGALRM in the worker)
SILENCE_SECONDS = 150   # a worker silent this long is stuck in C++: killed
MIN_SAMPLES = 3


def plan_recording(operators, yaml_folder):
    """{composites: {op: [key]}, differentiable: [op]} and the composite kernels left out."""
    generated = generated_composites(yaml_folder)
    chosen, left_out = composite_kernels(operators, generated)
    composites = {}
    for entry, key, _ in chosen:
        composites.setdefault(entry["name"], []).append(key)
    differentiable = sorted(
        e["name"] for e in operators
        if any(k.get("key", "").startswith("Autograd") and not k.get("inactive") for k in e.get("kernels", []))
        and not any(k.get("key") == "CompositeImplicitAutograd" for k in e.get("kernels", [])))
    return {"composites": composites, "differentiable": differentiable, "generated_known": generated is not None}, \
        left_out


class Workers:
    def __init__(self, script, device_choice, plan, jobs):
        self.script, self.device_choice, self.plan, self.jobs = script, device_choice, plan, jobs
        self.results = []   # done lines
        self.lost = {}      # unit -> "timeout" | "crash"
        self.seed = None

    def start(self, units, also=()):
        plan = dict(self.plan, also=list(also))
        process = subprocess.Popen([sys.executable, self.script, "--worker", self.device_choice],
                                   stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        process.stdin.write(json.dumps({"plan": plan, "units": units}).encode())
        process.stdin.close()
        return {"process": process, "units": list(units), "current": None, "buffer": b"",
                "heard": time.monotonic(), "also": also}

    def run(self, units, progress=None):
        self.results = []
        chunks = [units[i::self.jobs] for i in range(self.jobs)]
        live = [self.start(c, also=("seed",) if i == 0 else ()) for i, c in enumerate(chunks) if c]
        done = 0
        while live:
            ready, _, _ = wait_readable([w["process"].stdout for w in live], [], [], 5)
            for w in list(live):
                if w["process"].stdout in ready:
                    data = os.read(w["process"].stdout.fileno(), 1 << 20)
                    if data:
                        w["heard"] = time.monotonic()
                        w["buffer"] += data
                        *lines, w["buffer"] = w["buffer"].split(b"\n")
                        for line in lines:
                            done += self.take(w, json.loads(line))
                        if progress:
                            progress(done, len(units))
                        continue
                    w["process"].wait()
                elif time.monotonic() - w["heard"] < SILENCE_SECONDS:
                    continue
                else:
                    w["process"].kill()
                    w["process"].wait()
                    if w["current"] is not None:
                        self.lost[w["current"]] = "timeout"
                live.remove(w)
                if w["current"] is not None:  # died or killed inside a unit
                    self.lost.setdefault(w["current"], "crash")
                    done += 1
                    rest = w["units"][w["units"].index(w["current"]) + 1:]
                    if rest or w["also"]:
                        live.append(self.start(rest, w["also"]))
        return self.results

    def take(self, worker, message):
        if "start" in message:
            worker["current"] = message["start"]
            return 0
        if "done" in message:
            worker["current"] = None
            self.results.append(message)
            if message["status"] != "ok":
                self.lost[message["done"]] = message["status"]
            return 1
        if "seed" in message:
            self.seed = message["seed"]
            worker["also"] = ()
        return 0


def record_composite_calls(script, operators, yaml_folder, release, torch_version, how, device_choice,
                           jobs=2, progress=None, schema_backward=True, limit=None, kinds=False, kinds_only=False):
    """The composite_calls object of the live torch, and a summary dict for the report.
    kinds_only: the kinds pass alone (it does not depend on the dense passes), for adding
    kinds sections to a recording whose dense sections are kept."""
    started = time.monotonic()
    plan, left_out = plan_recording(operators, yaml_folder)
    op_db = import_op_db()
    opinfo_units = ["opinfo:%d" % i for i in range(len(op_db) if op_db else 0)]
    if limit:
        opinfo_units = opinfo_units[:limit]
    workers = Workers(script, device_choice, plan, jobs)
    kernels, backward, mode_dependent = {}, {}, set()
    kinds = kinds or kinds_only
    for message in workers.run([] if kinds_only else opinfo_units, progress):
        merge_tallies(kernels, message["kernels"])
        merge_tallies(backward, message["backward"])
        mode_dependent.update(message.get("mode_dependent", ()))
    # Second pass: operators no OpInfo reached (or reached on fewer than MIN_SAMPLES
    # samples: one sample makes every call look like "always"), with inputs built from
    # the schema.
    reached = {k.split("|")[0] for k, t in kernels.items() if t["n"] + sum(t["stub"].values()) >= MIN_SAMPLES}
    rest = [] if kinds_only else sorted(op for op in plan["composites"] if op not in reached)
    if schema_backward and not kinds_only:
        rest += sorted(op for op in plan["differentiable"] if op not in plan["composites"] and (
            op not in backward or backward[op]["n"] < MIN_SAMPLES))
    if limit:
        rest = rest[:limit]
    workers.plan = plan
    for message in workers.run(["schema:" + op for op in rest], progress):
        merge_tallies(kernels, message["kernels"])
        merge_tallies(backward, message["backward"])
        mode_dependent.update(message.get("mode_dependent", ()))

    # Third pass (--kinds): the same kernels on the other kinds of tensors (composite_kinds.py).
    kind_tallies = {}
    if kinds:
        kind_ops = sorted(plan["composites"])[:limit] if limit else sorted(plan["composites"])
        for message in workers.run(["kinds:" + u for u in opinfo_units] + ["kinds:schema:" + op for op in kind_ops],
                                   progress):
            merge_kind_tallies(kind_tallies, message, merge_tallies)

    out_kernels, out_backward = [], []
    not_recorded = dict(left_out)
    lost_ops = {u.split(":", 1)[1]: why for u, why in workers.lost.items() if u.startswith("schema:")}
    for op in sorted(plan["composites"]):
        for key in plan["composites"][op]:
            tally = kernels.get(op + "|" + key)
            body = entry_of(tally) if tally else None
            message = body.get("raises", {}).get("message", "") if body else ""
            if device_choice == "cpu" and "CPU" in message and "not implemented" not in message:
                # Recorded on CPU tensors, a kernel refusing the CPU says nothing of other backends.
                body = None if body["samples"] == sum(tally["stub"].values()) else dict(
                    {k: v for k, v in body.items() if k != "raises"}, samples=tally["n"])
            if body:
                out_kernels.append(dict({"op": op, "key": key}, **body))
                continue
            if op in lost_ops:
                reason = "the worker %s on it" % ("timed out" if lost_ops[op] == "timeout" else "crashed")
            elif tally is None:
                reason = "no sample input (no OpInfo reaches it; none could be built from its schema)"
            else:
                reason = "every sample was refused by the kernel's own checks"
            not_recorded[reason] = not_recorded.get(reason, 0) + 1
    for op in sorted(backward):
        body = entry_of(backward[op])
        if body:
            out_backward.append(dict({"op": op}, **body, **({"mode_dependent": True} if op in mode_dependent else {})))
    seconds = round(time.monotonic() - started, 1)
    samples = sum(t["n"] + sum(t["stub"].values()) for t in kernels.values())
    result = {"format": "dispatchctl-composite-calls", "version": 1, "release": release,
              # the backend the calls were seen on: the library follows them there only
              "backend": "PrivateUse1" if device_choice == "privateuse1" else "CPU",
              "recorded": {"torch": torch_version, "how": how, "seconds": seconds,
                           "operators_tried": len(opinfo_units) + len(rest), "samples": samples},
              "kernels": out_kernels, "backward": out_backward,
              # each node was given its first output's gradient alone, expanded as out.sum()'s is
              **({} if kinds_only else {"backward_gradients": "first_output_expanded"}),
              **({"kinds": kinds_section(plan, kind_tallies, entry_of)} if kinds else {}),
              "backward_seed": [{"op": c, "when": "always"} for c in dict.fromkeys(workers.seed or [])]}
    summary = {"seconds": seconds, "kernels": len(out_kernels),
               "operators": len({k["op"] for k in out_kernels}), "backward": len(out_backward),
               "mode_dependent": len(mode_dependent),
               "composite_kernels": sum(len(v) for v in plan["composites"].values()),
               "not_recorded": not_recorded, "lost_units": len(workers.lost),
               "kinds": {k["key"]: len(k["kernels"]) for k in result.get("kinds", [])}}
    return result, summary
