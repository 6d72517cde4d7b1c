"""The CLI test cases (tests/cli/cases/*.toml, read from there) of has-kernel, query, trace and
check, asked through the Python API: the same JSON answers, the same exit-status verdicts, and
for bad input an InputError with the CLI's one-line message.

A case is asked when its arguments translate to the API (no setup script, stdin, working folder,
environment, temporary file, standard-input source, help, -q/-v or trace --calls); the test
asserts that enough of them do, so a change in the cases cannot leave it comparing nothing."""
import pathlib
import tomllib

import pytest

import dispatchctl
from conftest import ROOT, cli_error, cli_json, run_cli

CASES_DIR = ROOT / "tests" / "cli" / "cases"
COMMANDS = {"has-kernel", "query", "trace", "check"}
# Options taking a value, per command (the API keyword, and whether it repeats).
VALUED = {
    "has-kernel": {"--key": "key", "-k": "key", "--format": None, "-m": "sources", "--manifest": "sources",
                   "--layer": "layering"},
    "query": {"--key": "key", "-k": "key", "--tag": "tags", "--outcome": "outcomes", "--registered-at": "registered_at",
              "--without": "without", "--op": "ops", "-m": "sources", "--manifest": "sources", "--layer": "layering"},
    "trace": {"--tensor": "tensors", "-t": "tensors", "--keyset": "keysets", "--autocast": "autocast",
              "--tls-include": "tls_include", "--tls-exclude": "tls_exclude", "--format": None, "-m": "sources",
              "--manifest": "sources", "--layer": "layering"},
    "check": {"--require": "require", "--op": "ops", "--base": "base", "--format": None, "--config": "config",
              "--layer": "layering"},
}
FLAGS = {
    "has-kernel": {"--computed": "computed", "--works": "works", "--json": None, "--bare": "bare"},
    "query": {"--registered": "registered", "--computed": "computed", "--works": "works", "--fails": "fails",
              "--unknown": "unknown", "--count": None, "--json": None, "--bare": "bare"},
    "trace": {"--inference-mode": "inference_mode", "--no-grad": "no_grad", "--bare": "bare"},
    "check": {"--no-config": None, "--warnings-as-errors": "warnings_as_errors", "--include-base": "include_base",
              "--show-existing": "show_existing", "--bare": "bare"},
}
SINGLE = {"key", "layering", "config"}


def expand(arg, here):
    return (arg.replace("{root}", str(ROOT)).replace("{manifests}", str(ROOT / "tests" / "manifests"))
            .replace("{here}", str(here)))


def translate(case, here):
    """(command, positional, keywords) for the API, or None when the case does not translate."""
    if set(case) & {"setup", "setup_sh", "stdin", "cwd", "env", "stdout_to"}:
        return None
    args = [expand(a, here) for a in case["run"]]
    if not args or args[0] not in COMMANDS or any("{tmp}" in a or a in ("-", "--help", "-q", "-v", "--calls",
                                                                         "--list-checks") for a in args):
        return None
    command, rest = args[0], args[1:]
    # The API takes a call's tensors, then its key sets: a --keyset before a --tensor has no API form.
    tensor_at = [i for i, a in enumerate(rest) if a in ("--tensor", "-t")]
    if command == "trace" and "--keyset" in rest and tensor_at and rest.index("--keyset") < tensor_at[-1]:
        return None
    positional, keywords = [], {"sources": []}
    i = 0
    while i < len(rest):
        a = rest[i]
        if a in VALUED[command]:
            if i + 1 >= len(rest):
                return None
            name = VALUED[command][a]
            if name in SINGLE:
                keywords[name] = rest[i + 1]
            elif name:
                keywords.setdefault(name, []).append(rest[i + 1])
            i += 2
        elif a in FLAGS[command]:
            if FLAGS[command][a]:
                keywords[FLAGS[command][a]] = True
            i += 1
        elif a.startswith("-"):
            return None
        else:
            positional.append(a)
            i += 1
    if keywords.pop("bare", False):
        keywords["layering"] = "bare"
    if any(s.startswith("python") for s in keywords["sources"] + positional):
        return None
    return command, positional, keywords


def json_args(command, case_args):
    """The case's CLI arguments asking for JSON (the API's answer form)."""
    args = [a for a in case_args if a not in ("--json", "--count")]
    out = []
    skip = False
    for a in args:
        if skip:
            skip = False
            continue
        if a == "--format":
            skip = True
            continue
        out.append(a)
    return out + (["--json"] if command == "query" else ["--format", "json"])


def ask(command, positional, keywords):
    sources = keywords.pop("sources")
    layering = keywords.pop("layering", "auto")
    if command == "check":
        return dispatchctl.check(*positional, layering=layering, **keywords)
    reg = dispatchctl.load(*sources, layering=layering)
    if command == "has-kernel":
        if len(positional) != 1 or "key" not in keywords:
            raise LookupError("does not translate")
        op, key = positional[0], keywords.pop("key")
        answer = reg.has_kernel_answer(op, key, **keywords)
        assert reg.has_kernel(op, key, **keywords) == (answer["answer"] == "yes")
        return answer
    if command == "query":
        return reg.query(**keywords)
    if len(positional) != 1:
        raise LookupError("does not translate")
    return reg.trace(positional[0], **keywords)


def load_cases():
    found = []
    for path in sorted(CASES_DIR.glob("*.toml")):
        for case in tomllib.loads(path.read_text())["case"]:
            translated = translate(case, CASES_DIR)
            if translated:
                found.append(pytest.param(case, translated, id=case["name"]))
    return found


CASES = load_cases()


def test_enough_cases_translate():
    per_command = {}
    for param in CASES:
        command = param.values[1][0]
        per_command[command] = per_command.get(command, 0) + 1
    assert per_command.get("has-kernel", 0) >= 10 and per_command.get("query", 0) >= 10, per_command
    assert per_command.get("trace", 0) >= 15 and per_command.get("check", 0) >= 15, per_command


@pytest.mark.parametrize("case,translated", CASES)
def test_case(case, translated):
    command, positional, keywords = translated
    args = [expand(a, CASES_DIR) for a in case["run"]]
    cli_args = json_args(command, args)
    if case["exit"] == 2:
        if run_cli(cli_args)[0] != 2:
            # query --key K alone: the text form needs a predicate, the JSON form (the API's) counts outcomes
            pytest.skip("the CLI's JSON form answers what its text form refuses")
        message = cli_error(cli_args)
        with pytest.raises(dispatchctl.InputError) as raised:
            ask(command, positional, dict(keywords))
        assert str(raised.value) == message
        return
    try:
        ours = ask(command, positional, dict(keywords))
    except LookupError:
        pytest.skip("arguments the API takes differently")
    status, _, _ = run_cli(cli_args)
    expected = cli_json(cli_args)
    if command == "check":
        assert ours.pop("has_errors") == (status == 1)
        ours.pop("notes")
    elif command == "trace":
        assert (ours["outcome"] == "raised") == (status == 1)
    elif command == "has-kernel":
        assert (ours["answer"] == "yes") == (status == 0)
    assert ours == expected
