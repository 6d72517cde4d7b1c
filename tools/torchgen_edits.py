"""How a torchgen corpus edit (tests/torchgen_corpus/README.md) changes the YAML texts:
the one definition tools/torchgen-judge.py (the real torchgen's verdict) and the corpus
checks (dispatchctl's verdict) share, so both judge the same edited files."""


def apply_edit(texts, edit):
    """`texts` with `edit` applied (one change or its `steps`). A run of `line` steps
    (a suggested fix: replace `remove` lines from `line` by `insert`) counts lines of the
    file before the run, so it applies bottom-up. Raises ValueError when a `from` text
    is not in its file."""
    texts = dict(texts)
    run = []
    for step in edit.get("steps", [edit]) + [None]:
        if step is not None and "line" in step:
            run.append(step)
            continue
        for s in sorted(run, key=lambda s: -s["line"]):
            lines = texts[s["file"]].splitlines(keepends=True)
            lines[s["line"] - 1:s["line"] - 1 + s["remove"]] = [s["insert"]]
            texts[s["file"]] = "".join(lines)
        run = []
        if step is None:
            break
        name = step.get("file", edit.get("file"))
        if "append" in step:
            texts[name] += step["append"]
        else:
            if step["from"] not in texts[name]:
                raise ValueError(f"edit {edit['id']}: `from` not found in {name}")
            texts[name] = texts[name].replace(step["from"], step["to"], 1)
    return texts
