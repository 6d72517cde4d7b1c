#!/usr/bin/python3
"""Every dispatchctl command of README.md runs as written (issue 24 item 16).

Extracts the commands: lines of fenced code blocks that start with
`dispatchctl ` (continuation lines joined) and inline code spans that are a
whole command (`dispatchctl show …` or `trace aten::add.Tensor …`, a command
word first). Each runs through bash in a scratch folder holding the files the
README's examples name (my_backend.json, my_ops.json, … from
tests/readme/files/, examples/, the built-in dump; a git checkout of them with two
commits, for git:REV:PATH), with this build's dispatchctl first on
PATH. A command passes when it exits 0 or 1 (1: an answer or findings, never
bad input); exit 2 only where the README says "exit 2" next to it.

Not run, each for a reason printed with --list: placeholders (FILE, OP, …),
a PyTorch checkout (~/pytorch), an interpreter's live torch (-m python,
export), and `completion`/`__complete` (tests/completion drives them)."""
import argparse
import os
import pathlib
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

COMMANDS = {"show", "keys", "import", "registries", "explain", "has-kernel", "query", "trace", "diff",
            "check", "verify", "export", "report", "completion"}
PLACEHOLDERS = {"FILE", "OP", "OPS", "PATH", "SHELL", "COMMAND", "PREFIX", "NAME", "VERSION", "K", "N", "PATTERN",
                "GROUP", "TAG", "INTERPRETER", "M", "P", "V", "X", "KEY", "MANIFEST", "DIR", "OLD", "NEW", "LIST"}


def code_block_commands(text):
    out = []
    for block in re.findall(r"^[ \t]*```[a-z]*\n(.*?)^[ \t]*```", text, re.S | re.M):
        block = re.sub(r"\\\n\s*", " ", block)
        for line in block.splitlines():
            line = line.strip()
            if line.startswith("dispatchctl "):
                out.append(line)
    return out


def inline_commands(text):
    out = []
    for span in re.findall(r"(?<!`)`([^`\n]+)`(?!`)", text):
        words = span.split()
        if len(words) < 2:
            continue
        if words[0] == "dispatchctl" and len(words) > 2 and words[1] in COMMANDS:
            out.append(span)
        elif len(words) >= 3 and words[0] in COMMANDS and not words[1].startswith(("(", "-")):
            out.append("dispatchctl " + span)
    return out


def why_not_run(command):
    try:
        words = shlex.split(command, comments=True)
    except ValueError:
        return "not a shell command"
    if any(w in PLACEHOLDERS or "…" in w or "..." in w or "<TAB>" in w or w.startswith("[") or ("|" in w and w != "|")
           for w in words):
        return "placeholders"
    if words[1] in {"completion", "__complete"}:
        return "tests/completion drives it"
    if any("~/" in w or w.startswith("~") for w in words):
        return "needs a PyTorch checkout"
    if any(w == "python" or w.startswith(("python:", "python?")) for w in words) or words[1] == "export":
        return "needs an interpreter with torch (tests/e2e)"
    if any(w in {"jq", "xdg-open"} and not shutil.which(w) for w in words):
        return "needs a tool this machine lacks"
    if any(w.startswith("/") and not os.path.exists(w) for w in words[2:]):
        return "a file of another machine"
    if "big.json" in words:
        return "bench/ generates big.json (1 M operators)"
    return None


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--dispatchctl", required=True)
    p.add_argument("--root", required=True)
    p.add_argument("--list", action="store_true", help="print each command and whether it runs")
    a = p.parse_args()
    root = pathlib.Path(a.root)
    text = (root / "README.md").read_text()
    commands = list(dict.fromkeys(code_block_commands(text) + inline_commands(text)))
    failures, ran = [], 0
    with tempfile.TemporaryDirectory() as tmp:
        work = pathlib.Path(tmp)
        shutil.copytree(root / "examples", work / "examples")
        for f in (root / "tests/readme/files").iterdir():
            shutil.copy(f, work / f.name)
        # The real files the import examples read.
        for f in ["lib/builtin/data/torch-2.14.1/registry_state.txt.gz", "lib/builtin/data/torch-2.14.1/fallbacks.json",
                  "tests/data/torch-2.14.1/torchgen/native_functions.yaml.gz"]:
            shutil.copy(root / f, work / pathlib.Path(f).name)
        # A git checkout of those files with two commits (the first also as
        # origin/main), so the README's git:REV:PATH forms (git:HEAD:…,
        # git:HEAD~1:…, torchgen:git:origin/main) read real revisions.
        git = ["git", "-c", "user.name=readme", "-c", "user.email=readme@example.invalid"]
        for step in (["init", "-q", "."], ["add", "-A"], ["commit", "-qm", "base"],
                     ["commit", "-q", "--allow-empty", "-m", "change"],
                     ["update-ref", "refs/remotes/origin/main", "HEAD~1"]):
            subprocess.run(git + step, cwd=work, check=True)
        bindir = work / ".bin"
        bindir.mkdir()
        os.symlink(os.path.abspath(a.dispatchctl), bindir / "dispatchctl")
        env = dict(os.environ, PATH=f"{bindir}:{os.environ['PATH']}", NO_COLOR="1")
        env.pop("COLUMNS", None)
        for command in commands:
            reason = why_not_run(command)
            if a.list:
                print(f"{'skip (' + reason + ')' if reason else 'run'}: {command}")
            if reason:
                continue
            ran += 1
            r = subprocess.run(["bash", "-c", command], cwd=work, env=env, capture_output=True, text=True,
                               timeout=120)
            allowed = {0, 1} | ({2} if "exit 2" in command else set())
            if r.returncode not in allowed:
                last = (r.stderr.strip().splitlines() or ["(no stderr)"])[-1]
                failures.append(f"exit {r.returncode}: {command}\n    {last}")
    print(f"{ran} README commands run, {len(commands) - ran} not run (--list says why)")
    for f in failures:
        print("FAIL " + f)
    return 1 if failures or ran == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
