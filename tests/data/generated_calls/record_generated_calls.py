#!/usr/bin/python3
"""What torchgen's generated composite kernels call, read by REAL torchgen (Debian's
python3-torch 1.13.1 ships it) from 1.13.1's own native_functions.yaml: the golden for
dispatchctl's generated calls (lib/torchgen/generated_calls.cpp, Registry::generated_call).
    /usr/bin/python3 tests/data/generated_calls/record_generated_calls.py \
        tests/data/torch-1.13.1/torchgen > tests/data/generated_calls/torch-1.13.1.json
Per generated composite: {"op", "key", "calls", "kind"}:
  structured_out      a structured group's functional/inplace op: register_dispatch_key.py's
                      CompositeExplicitAutogradNonFunctional wrapper calls at::OP_out
  autogen_out         a generated out= op: gen_composite_out_kernel calls the functional op
  autogen_functional  a generated functional op: gen_composite_functional_kernel calls the
                      non-generated inplace op, else the mutable one
Nothing here comes from dispatchctl."""
import gzip
import json
import os
import sys
import tempfile

from torchgen.gen import get_grouped_native_functions, parse_native_yaml
from torchgen.model import NativeFunctionsGroup


def unzipped(path, folder):
    out = os.path.join(folder, os.path.basename(path)[: -len(".gz")])
    with gzip.open(path, "rb") as f, open(out, "wb") as g:
        g.write(f.read())
    return out


def name(f):
    return "aten::" + str(f.func.name)


def main():
    src = sys.argv[1]
    with tempfile.TemporaryDirectory() as tmp:
        parsed = parse_native_yaml(unzipped(os.path.join(src, "native_functions.yaml.gz"), tmp),
                                   unzipped(os.path.join(src, "tags.yaml.gz"), tmp))
    calls = []
    for g in get_grouped_native_functions(parsed.native_functions):
        if not isinstance(g, NativeFunctionsGroup):
            continue
        if g.structured:
            for f in (g.functional, g.inplace):
                if f is not None:
                    calls.append({"op": name(f), "key": "CompositeExplicitAutogradNonFunctional",
                                  "calls": name(g.out), "kind": "structured_out"})
        if "generated" in g.out.tags:
            calls.append({"op": name(g.out), "key": "CompositeExplicitAutograd", "calls": name(g.functional),
                          "kind": "autogen_out"})
        if "generated" in g.functional.tags:
            target = g.inplace if g.inplace is not None and "generated" not in g.inplace.tags else g.mutable
            if target is not None and "generated" not in target.tags:
                calls.append({"op": name(g.functional), "key": "CompositeExplicitAutograd", "calls": name(target),
                              "kind": "autogen_functional"})
    calls.sort(key=lambda c: (c["op"], c["key"]))
    json.dump({"source": "torchgen " + __import__("torch").__version__ + " on " + src, "calls": calls}, sys.stdout,
              indent=0)
    sys.stdout.write("\n")


main()
