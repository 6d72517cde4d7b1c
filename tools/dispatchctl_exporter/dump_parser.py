"""Parses _dispatch_dump texts into manifest entries (mirrors
lib/registry/torch_dump.cpp), and finds the `[backend fallback]` rows of a
_dispatch_dump_table."""

import re

ALIAS_KINDS = ("FROM_SCHEMA", "CONSERVATIVE", "PURE_FUNCTION")


class ParseError(Exception):
    pass


def parse_kernel_line(line):
    """KEY[alias][ (inactive)]: DEBUG :: SIGNATURE [ fallthrough boxed unboxed ]"""
    colon = line.find(": ")
    if colon < 0:
        raise ParseError("expected a kernel line 'KEY: DEBUG :: SIGNATURE [ FLAGS ]'")
    key_part, rest = line[:colon], line[colon + 2:]
    inactive = False
    if len(key_part) > len(" (inactive)") and key_part.endswith(" (inactive)"):
        key_part = key_part[: -len(" (inactive)")]
        inactive = True
    alias = False
    if len(key_part) > len("[alias]") and key_part.endswith("[alias]"):
        key_part = key_part[: -len("[alias]")]
        alias = True
    if not key_part or " " in key_part:
        raise ParseError("'%s' is not a dispatch key name" % key_part)
    flags_at = rest.rfind(" [ ")
    if flags_at < 0 or not rest.endswith("]"):
        raise ParseError("kernel line lacks its flags, e.g. '[ boxed unboxed ]'")
    flags = rest[flags_at + 3: -1].split()
    head = rest[:flags_at]
    sig_at = head.rfind(" :: ")
    if sig_at < 0:
        raise ParseError("kernel line lacks ' :: SIGNATURE'")
    unknown = [f for f in flags if f not in ("fallthrough", "boxed", "unboxed")]
    if unknown:
        raise ParseError("unknown kernel flag '%s'" % unknown[0])
    signature = head[sig_at + 4:]
    return {
        "key": key_part,
        "alias": alias,
        "inactive": inactive,
        "kernel": head[:sig_at],
        "signature": None if signature == "(none)" else signature,
        "fallthrough": "fallthrough" in flags,
        "boxed": "boxed" in flags,
        "unboxed": "unboxed" in flags,
    }


def parse_state(name, text):
    """One _dispatch_dump text -> a manifest operator entry."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if not lines or lines[0] != "name: " + name:
        raise ParseError("expected 'name: %s' as the first line" % name)
    entry = {"name": name}
    i = 1
    if i >= len(lines) or not lines[i].startswith("schema: "):
        raise ParseError("expected 'schema: …' after the name line")
    schema = lines[i][len("schema: "):]
    i += 1
    if schema != "(none)":
        entry["schema"] = schema
        if i < len(lines) and lines[i].startswith("debug: "):
            entry["debug"] = lines[i][len("debug: "):]
            i += 1
        if i >= len(lines) or not lines[i].startswith("alias analysis kind: "):
            raise ParseError("expected 'alias analysis kind: …' after the schema")
        kind = lines[i][len("alias analysis kind: "):]
        i += 1
        explicit = True
        if len(kind) > len(" (default)") and kind.endswith(" (default)"):
            kind = kind[: -len(" (default)")]
            explicit = False
        if kind not in ALIAS_KINDS:
            raise ParseError("unknown alias analysis kind '%s'" % kind)
        if not explicit and kind != "CONSERVATIVE":
            raise ParseError("default alias analysis kind '%s' is not CONSERVATIVE; "
                             "a manifest cannot express it" % kind)
        if explicit:
            entry["alias_analysis"] = kind
    groups = []  # [(key, [kernel, ...] newest first)]
    for line in lines[i:]:
        if line == "":
            continue
        k = parse_kernel_line(line)
        if k["inactive"]:
            if not groups or groups[-1][0] != k["key"]:
                raise ParseError("'(inactive)' kernel does not follow an active kernel of the same key")
            groups[-1][1].append(k)
        else:
            if any(g[0] == k["key"] for g in groups):
                raise ParseError("a second active kernel for %s" % k["key"])
            groups.append((k["key"], [k]))
    kernels = []
    for _key, newest_first in groups:
        for k in reversed(newest_first):  # the manifest wants registration order
            out = {"key": k["key"], "kernel": k["kernel"]}
            if k["fallthrough"]:
                out["fallthrough"] = True
            if k["signature"] is not None:
                out["signature"] = k["signature"]
            if not k["boxed"]:
                out["boxed"] = False
            if k["unboxed"] != (not k["fallthrough"]):
                out["unboxed"] = k["unboxed"]
            kernels.append(out)
    if kernels:
        entry["kernels"] = kernels
    return entry


# A table's `KEY: TEXT [backend fallback]` rows, found in one pass over the
# whole table (a line-by-line loop cost ~0.5 s over all tables).
FALLBACK_LINE = re.compile(r"^([A-Za-z0-9_]+): (.*) \[backend fallback\]$", re.M)


def fallback_lines(table_text):
    """(key, text) of every `[backend fallback]` row of a _dispatch_dump_table."""
    return FALLBACK_LINE.findall(table_text)
