#!/usr/bin/env python3
"""The exporter's source form (tools/dispatchctl-export.py and its package
tools/dispatchctl_exporter/) against the one script the build inlines it into
(cmake/inline_exporter.cmake). Inlining puts every module in one namespace, so
two modules defining the same top-level name would silently break the built
script while the source form still worked: that is refused here. Needs no torch
(the exporter imports it only when it exports)."""

import argparse
import ast
import glob
import os
import subprocess
import sys


def top_level_names(path):
    """Names a file binds at module level, imports excepted (repeating those is harmless)."""
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read(), path)
    names = []
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.append(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names.extend(n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name))
    return names


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--source", required=True, help="tools/dispatchctl-export.py")
    p.add_argument("--built", required=True, help="BUILD/tools/dispatchctl-export.py")
    args = p.parse_args()
    failures = []

    package = os.path.join(os.path.dirname(os.path.abspath(args.source)), "dispatchctl_exporter")
    files = [args.source] + sorted(f for f in glob.glob(os.path.join(package, "*.py"))
                                   if os.path.basename(f) != "__init__.py")
    defined_in = {}
    for path in files:
        for name in top_level_names(path):
            if name in defined_in and defined_in[name] != path:
                failures.append("%s is defined in both %s and %s; the built script would keep only "
                                "the last" % (name, defined_in[name], path))
            defined_in.setdefault(name, path)

    with open(args.built, encoding="utf-8") as f:
        built = f.read()
    for path in files[1:]:
        if "# ---- tools/dispatchctl_exporter/%s " % os.path.basename(path) not in built:
            failures.append("%s is not inlined into %s (nothing imports it?)" % (path, args.built))

    # The source form resolves its package imports and says what the built one says.
    helps = [subprocess.run([sys.executable, script, "--help"], stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT).stdout for script in (args.source, args.built)]
    if helps[0] != helps[1] or b"usage: dispatchctl-export" not in helps[0]:
        failures.append("--help of the source and the built exporter differ:\n%s\n---\n%s"
                        % (helps[0].decode(errors="replace"), helps[1].decode(errors="replace")))

    for failure in failures:
        print("FAIL: " + failure, file=sys.stderr)
    print("%d files, %d top-level names checked" % (len(files), len(defined_in)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
