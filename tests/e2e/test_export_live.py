#!/usr/bin/python3
"""End-to-end: export the live registry of Debian's PyTorch 1.13.1 (after
importing e2e_custom_ops, which registers custom operators from Python) with
tools/dispatchctl-export.py, then check for EVERY operator that

    dispatchctl show '*' --format torch-table -m export.json  == torch._C._dispatch_dump_table(op)
    dispatchctl show '*' --format torch-state -m export.json  == torch._C._dispatch_dump(op)

Golden output is the live PyTorch's; nothing here comes from dispatchctl."""

import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import e2e_common as e2e  # noqa: E402


def main():
    args = e2e.arguments(__doc__)
    torch = e2e.require_torch()
    started = time.time()
    export = os.path.join(args.workdir, "live_export.json")
    if os.path.exists(export):
        os.unlink(export)

    # The exporter imports the "extension" itself (--import), in this process.
    e2e.run_exporter(args.exporter, ["--import", "e2e_custom_ops", "-o", export])
    import e2e_custom_ops

    C = torch._C
    names = sorted(C._dispatch_get_registrations_for_dispatch_key(""))
    for op in e2e_custom_ops.OPERATORS:
        if op not in names:
            print("FAIL: the custom operator %s is not in the live registry" % op)
            return 1
    live_tables = {n: C._dispatch_dump_table(n) for n in names}
    live_states = {n: C._dispatch_dump(n) for n in names}

    ours_tables = e2e.split_blocks(e2e.dispatchctl(args.dispatchctl,
                                                   ["show", "*", "--format", "torch-table", "-m", export]))
    ours_states = e2e.split_blocks(e2e.dispatchctl(args.dispatchctl,
                                                   ["show", "*", "--format", "torch-state", "-m", export]))
    bad_tables = e2e.compare(live_tables, ours_tables, "torch-table")
    bad_states = e2e.compare(live_states, ours_states, "torch-state")

    custom = [op for op in e2e_custom_ops.OPERATORS if op in live_tables]
    print("torch %s: %d operators (%d registered by the test) compared in %.1f s: "
          "torch-table %d mismatches, torch-state %d mismatches"
          % (torch.__version__, len(names), len(custom), time.time() - started,
             len(bad_tables), len(bad_states)))
    if bad_tables or bad_states:
        print("FAIL: mismatching operators: %s" % ", ".join(sorted(set(bad_tables) | set(bad_states))[:20]))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
