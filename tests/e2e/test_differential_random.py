#!/usr/bin/python3
"""Differential random test: seeded random registration scenarios are replayed
on the live PyTorch 1.13.1, exported with tools/dispatchctl-export.py, and
dispatchctl's torch-table / torch-state output for every scenario operator is
compared with the live _dispatch_dump_table / _dispatch_dump.

The real registries leave many rules unexercised (building-block keys, CEANF
alone, CIANT, catch-all, HIP/VE autograd quirks, overrides, inactive kernels,
removed registrations, dangling impls, fallthrough backend fallbacks on odd
keys); this test covers them. Each scenario gets a fresh namespace; every step
is a line of Python, so a failing scenario prints a runnable reproduction.

    DISPATCHCTL_DIFF_SEED=7 DISPATCHCTL_DIFF_COUNT=2000 ctest -R e2e_differential
"""

import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import e2e_common as e2e  # noqa: E402

DEFAULT_SEED = 20261129
DEFAULT_COUNT = 400
NAMESPACE_PREFIX = "dctl_rnd"

# Keys the generator favours: the rules the real registries barely exercise.
INTERESTING = [
    "", "Undefined", "CompositeImplicitAutograd", "CompositeExplicitAutograd",
    "CompositeExplicitAutogradNonFunctional", "CompositeImplicitAutogradNestedTensor", "Autograd",
    "Dense", "Quantized", "Sparse", "NestedTensor", "AutogradFunctionality",
    "CPU", "CUDA", "HIP", "VE", "XLA", "Lazy", "Meta", "PrivateUse1", "MPS",
    "AutogradOther", "AutogradCPU", "AutogradCUDA", "AutogradXLA", "AutogradNestedTensor",
    "AutogradMeta", "AutogradPrivateUse1",
    "SparseCPU", "SparseHIP", "SparseVE", "QuantizedCPU", "NestedTensorCPU", "NestedTensorCUDA",
    "SparseCsrCPU", "FPGA", "ORT", "Vulkan", "Metal", "MkldnnCPU", "CustomRNGKeyId",
    "FuncTorchBatched", "Named", "BackendSelect", "ADInplaceOrView", "Python", "Functionalize",
]
# Names PyTorch might or might not parse (BC names); filtered like the rest.
EXTRA_CANDIDATES = ["CatchAll", "Math", "DefaultBackend", "Autocast", "CPUTensorId",
                    "PrivateUse1_PreAutograd", "SparseCsr"]
# Candidate keys for extra fallthrough backend fallbacks (only those without one are used).
FALLBACK_CANDIDATES = ["PrivateUse1", "AutogradPrivateUse1", "AutogradMeta", "FPGA", "Meta",
                       "AutogradNestedTensor", "SparseCPU", "AutocastXPU", "CUDA", "HIP",
                       "QuantizedCPU", "NestedTensorCPU", "AutogradHIP", "Vulkan"]
# Core operators of schema (Tensor self) -> Tensor that scenarios may add kernels to.
ATEN_OPS = ["sin", "cos", "abs", "neg", "exp", "sigmoid", "tanh", "sqrt", "relu", "ceil",
            "floor", "trunc", "sign", "erf", "expm1"]
TRICKY_DEBUG = ["a :: b", "x [ y ]", "has: colon", "", "fn (inactive)", "ends]", "[alias]",
                "registered at /tmp/x.py:1", "  spaced  ", "unicode \u00e9\u00df"]


def candidate_keys(source_dir):
    names = []
    with open(os.path.join(source_dir, "tests/data/torch-1.13.1/keys.txt"), encoding="utf-8") as f:
        for line in f:
            if line.startswith("#"):
                continue
            names.append(line.rstrip("\n").split("\t")[1])
    return names + EXTRA_CANDIDATES


def parseable_keys(C, candidates):
    """Keys this PyTorch accepts in a registration (its parseDispatchKey table)."""
    ok = []
    probe = C._dispatch_library("DEF", "dctl_keyprobe", "", "", 0)
    probe.def_("k(Tensor x) -> Tensor")
    with e2e.StderrSilenced():
        for name in candidates:
            try:
                probe.impl_t_t("k", dispatch=name, debug="probe")
                ok.append(name)
            except RuntimeError:
                pass
    del probe
    return ok


class Scenario:
    def __init__(self, index, rng, keys, interesting):
        self.index = index
        self.ns = "%s%d" % (NAMESPACE_PREFIX, index)
        self.lines = []
        self.ops = []
        self._generate(rng, keys, interesting)

    def _key(self, rng, keys, interesting, used):
        r = rng.random()
        if used and r < 0.25:
            return rng.choice(used)                  # overrides -> inactive kernels
        if r < 0.6:
            return rng.choice(interesting)
        return rng.choice(keys)

    def _debug(self, rng, n):
        if rng.random() < 0.1:
            return rng.choice(TRICKY_DEBUG)
        return "k%d_%d" % (self.index, n)

    def _generate(self, rng, keys, interesting):
        ns = self.ns
        names = ["op"] + (["op.ov"] if rng.random() < 0.25 else [])
        self.ops = ["%s::%s" % (ns, n) for n in names]
        defined = rng.random() < 0.85
        def_first = rng.random() < 0.7
        libs = []
        body = []
        line = rng.randint(1, 999)
        if defined:
            body_def = ["d = C._dispatch_library('DEF', %r, '', 'scenario.py', %d)" % (ns, line)]
            for n in names:
                alias = rng.choice(["", "", "FROM_SCHEMA", "CONSERVATIVE", "PURE_FUNCTION"])
                r = rng.random()
                if n == "op" and r < 0.07:     # schema inferred from the kernel
                    body_def.append("d.def_name_t_t(%r, dispatch=%r, debug=%r)"
                                    % (n, rng.choice(interesting), self._debug(rng, 99)))
                elif r < 0.14:                 # def with a kernel
                    body_def.append("d.def_schema_t_t(%r, dispatch=%r, alias=%r, debug=%r)"
                                    % (n + "(Tensor x) -> Tensor", rng.choice(interesting), alias,
                                       self._debug(rng, 98)))
                elif r < 0.24:                 # alias analysis left at its default
                    body_def.append("d.def_legacy(%r)" % (n + "(Tensor x) -> Tensor"))
                else:
                    body_def.append("d.def_(%r, alias=%r)" % (n + "(Tensor x) -> Tensor", alias))
        n_libs = rng.randint(1, 3)
        for j in range(n_libs):
            lib_key = ""
            if rng.random() < 0.15:
                lib_key = rng.choice([k for k in interesting if k] or keys)
            libs.append(("m%d" % j, lib_key))
            body.append("m%d = C._dispatch_library(%r, %r, %r, 'scenario.py', %d)"
                        % (j, rng.choice(["IMPL", "FRAGMENT"]) if lib_key == "" else "IMPL",
                           ns, lib_key, rng.randint(1, 999)))
        used = []
        for n in range(rng.randint(0, 9)):
            var, lib_key = rng.choice(libs)
            op = rng.choice(names)
            key = lib_key if lib_key else self._key(rng, keys, interesting, used)
            used.append(key)
            if rng.random() < 0.3:
                body.append("%s.impl(%r, %r, fn)" % (var, op, "" if lib_key else key))
            else:
                body.append("%s.impl_t_t(%r, dispatch=%r, debug=%r)"
                            % (var, op, "" if lib_key else key, self._debug(rng, n)))
        if rng.random() < 0.05:  # a kernel on a core operator, over the real registrations
            aten_op = rng.choice(ATEN_OPS)
            self.ops.append("aten::" + aten_op)
            body.append("a = C._dispatch_library('IMPL', 'aten', '', 'scenario.py', %d)"
                        % rng.randint(1, 999))
            key = self._key(rng, keys, interesting, [])
            if rng.random() < 0.5:
                body.append("a.impl(%r, %r, fn)" % (aten_op, key))
            else:
                body.append("a.impl_t_t(%r, dispatch=%r, debug=%r)" % (aten_op, key, self._debug(rng, 97)))
        if rng.random() < 0.1:
            body.append("del %s" % rng.choice(libs)[0])  # removes that library's kernels
        if defined and def_first:
            self.lines = body_def + body
        elif defined:
            self.lines = body + body_def
        else:
            self.lines = body

    def run(self, C, fn):
        env = {"C": C, "fn": fn}
        self.errors = []
        for code in self.lines:
            try:
                exec(code, env)  # noqa: S102 - generated, see repro()
            except Exception as e:  # noqa: BLE001 - PyTorch refused it; it leaves no trace
                self.errors.append("%s  # raised %s: %s" % (code, type(e).__name__,
                                                             str(e).split("\n")[0]))
        self.env = env  # keeps the libraries (and their registrations) alive

    def repro(self, fallback_lines):
        out = ["import torch", "C = torch._C", "fn = lambda x: x"] + fallback_lines + self.lines
        out += ["for op in %r:" % self.ops,
                "    print(C._dispatch_dump(op)); print(C._dispatch_dump_table(op))"]
        return "\n".join(out)


def main():
    def extra(p):
        p.add_argument("--seed", type=int, default=int(os.environ.get("DISPATCHCTL_DIFF_SEED", DEFAULT_SEED)))
        p.add_argument("--count", type=int, default=int(os.environ.get("DISPATCHCTL_DIFF_COUNT", DEFAULT_COUNT)))
    args = e2e.arguments(__doc__, extra)
    torch = e2e.require_torch()
    C = torch._C
    started = time.time()
    source_dir = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    rng = random.Random(args.seed)
    print("differential test: seed %d, %d scenarios (rerun: DISPATCHCTL_DIFF_SEED=%d)"
          % (args.seed, args.count, args.seed))

    keys = parseable_keys(C, candidate_keys(source_dir))
    keys_with_catchall = keys + [""]
    interesting = [k for k in INTERESTING if k == "" or k in keys]

    def fn(x):
        return x

    # A few extra fallthrough backend fallbacks on keys that have none.
    fallback_lines = []
    fb_env = {"C": C}
    chosen = rng.sample([k for k in FALLBACK_CANDIDATES if k in keys], 4)
    for n, key in enumerate(chosen):
        code = ("fb%d = C._dispatch_library('IMPL', '_', %r, 'fallbacks.py', %d); fb%d.fallback_fallthrough()"
                % (n, key, 10 + n, n))
        try:
            exec(code, fb_env)  # noqa: S102
        except RuntimeError:  # the key has a fallback already
            continue
        fallback_lines.append(code)

    scenarios = [Scenario(i, rng, keys_with_catchall, interesting) for i in range(args.count)]
    with e2e.StderrSilenced():  # c10 prints a warning per override
        for s in scenarios:
            s.run(C, fn)

    known = set(C._dispatch_get_registrations_for_dispatch_key(""))
    ops = sorted(set(op for s in scenarios for op in s.ops if op in known))
    core_ops = sorted(set(op for op in ops if op.startswith("aten::")))
    live_tables = {op: C._dispatch_dump_table(op) for op in ops}
    live_states = {op: C._dispatch_dump(op) for op in ops}

    export = os.path.join(args.workdir, "differential_export.json")
    patterns = [NAMESPACE_PREFIX + "*"] + core_ops
    e2e.run_exporter(args.exporter, [a for p in patterns for a in ("--op", p)] + ["-o", export])
    # A bare name means every overload to dispatchctl; NAME.default is the unnamed one alone.
    show_patterns = [NAMESPACE_PREFIX + "*"] + [op if "." in op.split("::")[1] else op + ".default" for op in core_ops]
    ours_tables = e2e.split_blocks(e2e.dispatchctl(args.dispatchctl,
                                                   ["show"] + show_patterns + ["--format", "torch-table", "-m", export]))
    ours_states = e2e.split_blocks(e2e.dispatchctl(args.dispatchctl,
                                                   ["show"] + show_patterns + ["--format", "torch-state", "-m", export]))
    bad_tables = e2e.compare(live_tables, ours_tables, "torch-table", limit=3)
    bad_states = e2e.compare(live_states, ours_states, "torch-state", limit=3)
    bad = set(bad_tables) | set(bad_states)

    tags = {}
    for text in live_tables.values():
        for line in text.splitlines():
            tag = line[line.rfind("[") + 1:-1]
            tags[tag] = tags.get(tag, 0) + 1
    print("live table rows by tag: " + ", ".join("%s %d" % kv for kv in sorted(tags.items())))
    refused = sum(len(s.errors) for s in scenarios)
    kernels = sum(s.lines.__len__() for s in scenarios)
    print("%d scenarios, %d operators incl. %d core ones (%d registration lines, %d refused by PyTorch), "
          "%d parseable keys, extra fallbacks %s: %d torch-table and %d torch-state mismatches; %.1f s"
          % (len(scenarios), len(ops), len(core_ops), kernels, refused, len(keys),
             [l.split("'")[5] for l in fallback_lines], len(bad_tables), len(bad_states),
             time.time() - started))
    if not bad:
        return 0
    failing = [s for s in scenarios if any(op in bad for op in s.ops)]
    path = os.path.join(args.workdir, "failing_scenarios.py")
    with open(path, "w", encoding="utf-8") as f:
        for s in failing:
            f.write("# ---- scenario %d (seed %d)\n%s\n\n" % (s.index, args.seed, s.repro(fallback_lines)))
    smallest = min(failing, key=lambda s: len(s.lines))
    print("FAIL: %d of %d scenarios mismatch: %s" % (len(failing), len(scenarios),
                                                     ", ".join(str(s.index) for s in failing[:30])))
    print("smallest failing scenario (%d) as a reproduction; all are in %s:\n%s"
          % (smallest.index, path, smallest.repro(fallback_lines)))
    return 1


if __name__ == "__main__":
    sys.exit(main())
