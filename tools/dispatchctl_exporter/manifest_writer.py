"""Writes the manifest as JSON, one line per kernel and per fallback,
atomically."""

import json
import os
import tempfile


def render(manifest, write):
    """JSON with one line per fallback and per kernel (diffable, and small), handed
    to `write` in pieces: no copy of the whole text is ever built."""
    one = json.JSONEncoder(ensure_ascii=False).encode  # json.dumps's text, without an encoder per value
    string = json.encoder.encode_basestring  # a str quoted as json.dumps does: the bulk of the file

    def lines(texts, opening, closing):
        """opening, then `texts` one per line separated by commas, then closing;
        written 500 lines at a time."""
        texts = iter(texts)
        separator = "\n"
        write(opening)
        while True:
            batch = [text for _, text in zip(range(500), texts)]
            if not batch:
                break
            write(separator + ",\n".join(batch))
            separator = ",\n"
        write(closing)

    def operator(op):
        kernels = op.get("kernels")
        if not kernels:
            return "  " + one(op)
        head = one({k: v for k, v in op.items() if k != "kernels"})
        return "  " + head[:-1] + ', "kernels": [\n' + ",\n".join("    " + one(k) for k in kernels) + "]}"

    write('{\n "dispatchctl_manifest": %s,\n "torch_version": %s,\n'
          % (one(manifest["dispatchctl_manifest"]), one(manifest["torch_version"])))
    if "release_profile" in manifest:
        lines(("  %s: %s" % (string(k), one(v)) for k, v in manifest["release_profile"].items()),
              ' "release_profile": {', "\n },\n")
    if "fallbacks" in manifest:
        lines(("  " + one(fb) for fb in manifest["fallbacks"]), ' "fallbacks": [', "\n ],\n")
    last = "recorded" not in manifest and "composite_calls" not in manifest
    lines(map(operator, manifest["operators"]), ' "operators": [', "\n ]\n}\n" if last else "\n ],\n")
    if last:
        return
    if "composite_calls" in manifest:
        # The file format of docs/composite-calls.md, one line per kernel and backward entry.
        calls = manifest["composite_calls"]
        head = one({k: v for k, v in calls.items() if k not in ("kernels", "backward", "backward_seed")})
        write(' "composite_calls": ' + head[:-1])
        for section in ("kernels", "backward"):
            lines(("  " + one(e) for e in calls.get(section, [])), ', "%s": [' % section, "\n  ]")
        write(', "backward_seed": %s}%s\n' % (one(calls.get("backward_seed", [])),
                                                "," if "recorded" in manifest else "\n}"))
        if "recorded" not in manifest:
            return
    tables, states = manifest["recorded"]["tables"], manifest["recorded"]["states"]
    lines(("   %s: %s" % (string(k), string(tables[k])) for k in sorted(tables)),
          ' "recorded": {\n  "tables": {', "},\n")
    lines(("   %s: %s" % (string(k), string(states[k])) for k in sorted(states)),
          '  "states": {', "}\n }\n}\n")


def write_atomically(path, fill):
    """Calls fill(write) into a temporary file beside `path`, then renames it there."""
    directory = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=".%s." % os.path.basename(path), suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "wb") as f:  # bytes: a text file's write costs 0.2 s more for 33 MB
            fill(lambda text: f.write(text.encode("utf-8")))
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
