#!/usr/bin/env python3
"""Export the live PyTorch dispatcher registry as a dispatchctl manifest.

Runs in any Python that has torch >= 1.13 and writes a manifest
(docs/manifest-format.md, "dispatchctl_manifest": 1) holding every
operator the dispatcher knows (custom namespaces included), every kernel with
its debug string in registration order (inactive ones too), fallthrough flags,
inferred signatures, boxed/unboxed flags, the alias-analysis kind, the
dispatcher-wide backend fallbacks, the release profile (what this torch reports
about its keys, plus behaviour probed with throwaway operators in a scratch
namespace; fields not observed are listed in its "inferred") and, for
`dispatchctl verify`, every exported operator's real _dispatch_dump_table and
_dispatch_dump text ("recorded").

Only public and torch._C._dispatch_* functions are used:
  * operator list: _dispatch_get_all_op_names (2.x) or
    _dispatch_get_registrations_for_dispatch_key("") (1.13), plus
    _dispatch_find_dangling_impls;
  * per operator: _dispatch_dump (OperatorEntry::dumpState), parsed exactly as
    dispatchctl's `import torch-dump` parses it;
  * fallbacks: no API lists them, so they are read off the `[backend fallback]`
    lines of the _dispatch_dump_table of a fresh operator without kernels (of
    every operator where none can be defined) and cross-checked with
    _dispatch_has_backend_fallback.

    python3 tools/dispatchctl-export.py -o my_torch.json
    python3 tools/dispatchctl-export.py --import my_ext --namespace my_ext -o my_ext.json
    dispatchctl show 'my_ext::*' -m my_torch.json

Exit status: 0 complete, 1 written but something could not be read (see the
warnings on stderr), 2 usage error or nothing written.
"""

import argparse
import importlib
import importlib.util
import os
import sys

# The modules of tools/dispatchctl_exporter/. The build inlines each one in place
# of its first import (cmake/inline_exporter.cmake), so the exporter dispatchctl
# embeds and installs stays one file that runs in any Python and can be copied
# anywhere (a chroot, a container). Hence: only `from dispatchctl_exporter.M
# import NAMES` on one line, and top-level names distinct across the modules.
from dispatchctl_exporter.composite_driver import record_composite_calls
from dispatchctl_exporter.composite_worker import composite_worker_main
from dispatchctl_exporter.cpu_backed_device import privateuse1_backend_available
from dispatchctl_exporter.dump_parser import ParseError, parse_state
from dispatchctl_exporter.live_registry import all_op_names, normalized_version, read_fallbacks, select
from dispatchctl_exporter.manifest_writer import render, write_atomically
from dispatchctl_exporter.messages import ExportError, Problems, clear_progress, show_progress
from dispatchctl_exporter.release_profile import release_profile

FORMAT_VERSION = 1


def export(args, problems):
    if args.imports and os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())  # like `python -m`: modules of the current folder
    for module in args.imports:
        show_progress("importing %s" % module)
        try:
            importlib.import_module(module)
        except Exception as e:  # noqa: BLE001
            raise ExportError("--import %s failed: %s: %s" % (module, type(e).__name__, e))
    try:
        import torch
    except Exception as e:  # noqa: BLE001
        raise ExportError("cannot import torch (%s: %s); run this script with the Python that has "
                          "your PyTorch" % (type(e).__name__, e))
    C = torch._C
    if not hasattr(C, "_dispatch_dump"):
        raise ExportError("torch._C._dispatch_dump is missing; torch >= 1.13 is needed")
    version = normalized_version(torch.__version__)

    names = all_op_names(C, problems)
    chosen = select(names, set(args.namespaces), args.ops)

    # One pass over the operators; the tables (for `verify`) are dumped here, before the
    # profile's probes define operators of their own.
    operators, states, tables = [], {}, {}
    dump, dump_table = C._dispatch_dump, C._dispatch_dump_table
    for n, name in enumerate(chosen):
        if n % 100 == 0:
            show_progress("reading operators: %d/%d" % (n, len(chosen)))
        text = dump(name)
        if not text:
            problems.add("%s: _dispatch_dump returned nothing (operator gone?); left out" % name)
            continue
        states[name] = text
        if args.recorded:
            tables[name] = dump_table(name)
        try:
            operators.append(parse_state(name, text))
        except ParseError as e:
            problems.add("%s: cannot read its _dispatch_dump (%s); left out. The text was:\n%s"
                         % (name, e, text))

    fallbacks = []
    if args.fallbacks:
        for key, text in sorted(read_fallbacks(C, names, problems, tables).items()):
            entry = {"key": key}
            if text.startswith("fallthrough "):
                entry["kernel"] = text[len("fallthrough "):]
                entry["fallthrough"] = True
            else:
                entry["kernel"] = text
            fallbacks.append(entry)
    clear_progress()

    manifest = {"dispatchctl_manifest": FORMAT_VERSION, "torch_version": version}
    profile_apis = ["_dispatch_key_name", "_dispatch_is_included_in_alias",
                    "_dispatch_get_backend_keyset_from_autograd"]
    lacking = [a for a in profile_apis if not hasattr(C, a)]
    if not (hasattr(C, "_dispatch_keyset_full") or hasattr(C, "_dispatch_keyset_full_after")):
        lacking.append("_dispatch_keyset_full")
    if args.profile and lacking:
        clear_progress()
        print("dispatchctl-export: note: no release profile recorded: torch._C lacks %s; dispatchctl "
              "will need a built-in profile of PyTorch %s" % (", ".join(lacking), version), file=sys.stderr)
    elif args.profile:
        show_progress("probing the release profile")
        try:
            manifest["release_profile"] = release_profile(C, torch, version)
        except ExportError as e:
            problems.add("no release profile: %s" % e)
    if args.fallbacks:
        manifest["fallbacks"] = fallbacks
    manifest["operators"] = operators
    if args.composite_calls:
        manifest["composite_calls"] = composite_calls(torch, operators, version)
    if args.recorded:
        manifest["recorded"] = {"tables": tables, "states": states}
    stats = (len(operators), sum(len(o.get("kernels", [])) for o in operators), len(fallbacks),
             torch.__version__)
    return manifest, stats


def composite_calls(torch, operators, version):
    """What the hand-written composite kernels of this torch call (docs/composite-calls.md),
    recorded by running them in worker processes (this script, started with --worker)."""
    device = "privateuse1" if privateuse1_backend_available(torch) else "cpu"
    how = ("recorded by dispatchctl-export --composite-calls in torch %s on %s" %
           (torch.__version__, "a CPU-backed Python PrivateUse1 backend" if device == "privateuse1" else
            "CPU tensors (no Python PrivateUse1 backend in this release; calls on 0-dim tensors only are "
            "taken for CPU scalars)"))

    def progress(done, total):
        show_progress("recording composite calls: %d/%d units" % (done, total))
    result, summary = record_composite_calls(os.path.abspath(__file__), operators, torchgen_yaml_folder(),
                                             version, torch.__version__, how, device, progress=progress)
    clear_progress()
    print("dispatchctl-export: composite calls: %d kernels of %d operators, %d backward, in %.0f s"
          % (summary["kernels"], summary["operators"], summary["backward"], summary["seconds"]), file=sys.stderr)
    return result


def torchgen_yaml_folder():
    """The folder of the native_functions.yaml torchgen ships beside torch (the YAML
    the build generated its kernels from), or None. dispatchctl export reads it to
    say what the generated composite kernels call; no torchgen code is imported."""
    try:
        spec = importlib.util.find_spec("torchgen")
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.origin:
        return None
    folder = os.path.join(os.path.dirname(spec.origin), "packaged", "ATen", "native")
    return folder if os.path.isfile(os.path.join(folder, "native_functions.yaml")) else None


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="dispatchctl-export",
        description="Write a dispatchctl manifest of the live PyTorch dispatcher registry "
                    "(every operator, kernel and backend fallback).",
        epilog="Example: python3 tools/dispatchctl-export.py --import my_ext -o my_torch.json && "
               "dispatchctl show 'my_ext::*' -m my_torch.json")
    parser.add_argument("-o", "--output", metavar="FILE",
                        help="write here (atomically); default: standard output")
    parser.add_argument("--namespace", dest="namespaces", action="append", default=[], metavar="NS",
                        help="export only operators of this namespace (repeatable)")
    parser.add_argument("--op", dest="ops", action="append", default=[], metavar="NAME",
                        help="export only this operator: full name, bare name (all overloads) or "
                             "glob (repeatable; adds to --namespace)")
    parser.add_argument("--import", dest="imports", action="append", default=[], metavar="MODULE",
                        help="import this module first, e.g. your extension that registers "
                             "operators (repeatable)")
    parser.add_argument("--no-fallbacks", dest="fallbacks", action="store_false",
                        help="leave the backend fallbacks out, e.g. to layer the export over "
                             "builtin:VERSION, which has them already")
    parser.add_argument("--no-profile", dest="profile", action="store_false",
                        help="leave the release profile out (dispatchctl then needs a built-in "
                             "profile of the same MAJOR.MINOR)")
    parser.add_argument("--no-recorded", dest="recorded", action="store_false",
                        help="do not record every operator's _dispatch_dump_table and _dispatch_dump "
                             "text (smaller file; 'dispatchctl verify' needs them)")
    parser.add_argument("--composite-calls", dest="composite_calls", action="store_true",
                        help="also record what every hand-written composite kernel and backward calls, by "
                             "running them on sample inputs (docs/composite-calls.md; takes minutes)")
    args = parser.parse_args(argv)

    problems = Problems()
    where = args.output if args.output and args.output != "-" else "standard output"
    try:
        manifest, (n_ops, n_kernels, n_fallbacks, raw_version) = export(args, problems)
        if args.output and args.output != "-":
            write_atomically(args.output, lambda write: render(manifest, write))
        else:
            sys.stdout.flush()
            out = getattr(sys.stdout, "buffer", None)
            render(manifest, (lambda text: out.write(text.encode("utf-8"))) if out else sys.stdout.write)
            sys.stdout.flush()
    except ExportError as e:
        clear_progress()
        print("dispatchctl-export: error: %s" % e, file=sys.stderr)
        return 2
    except OSError as e:
        clear_progress()
        print("dispatchctl-export: error: cannot write %s: %s" % (where, e.strerror or e), file=sys.stderr)
        return 2
    print("dispatchctl-export: torch %s: %d operators, %d kernels, %d backend fallbacks -> %s"
          % (raw_version, n_ops, n_kernels, n_fallbacks, where), file=sys.stderr)
    print("dispatchctl-export: torchgen YAML: %s" % (torchgen_yaml_folder() or "none"), file=sys.stderr)
    if problems.items:
        print("dispatchctl-export: %d thing(s) could not be read (warnings above); the manifest "
              "may be incomplete" % len(problems.items), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__" and "--worker" in sys.argv:  # a composite-call recording worker
    composite_worker_main()
    sys.stdout.flush()
    os._exit(0)
elif __name__ == "__main__":
    status = main()
    # Everything is written; tearing down torch and the registry's texts would cost
    # ~0.2 s of CPU for nothing.
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):
        status = status or 2
    os._exit(status)
