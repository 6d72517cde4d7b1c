"""Every operator's table of both built-in releases through the Python API equals the CLI's
`show '*' --format json` rows (one CLI run per release), field for field; the Row attributes
read the same values; has_kernel agrees with the registrations the CLI lists."""
import pytest

import dispatchctl
from conftest import cli_json

RELEASES = ["builtin:2.14.1", "builtin:1.13.1"]
FIELDS = ["key", "tag", "tag_id", "kernel", "fallthrough", "source", "registered_at", "language", "origin"]


@pytest.mark.parametrize("source", RELEASES)
def test_every_table_equals_the_cli(source):
    document = cli_json(["show", "*", "--format", "json", "--all-keys", "-m", source])
    reg = dispatchctl.load(source)
    assert reg.torch_version == document["torch_version"]
    assert reg.operators() == [op["name"] for op in document["operators"]]
    rows_compared = 0
    for op in document["operators"]:
        table = reg.table(op["name"], all_keys=True)
        ours = table.to_list()
        for row in ours:
            assert row.pop("outcome") in OUTCOMES
        assert ours == op["rows"], op["name"]
        shown = reg.table(op["name"])
        assert list(shown) == [row["key"] for row in op["rows"] if row["tag_id"] != "missing"], op["name"]
        rows_compared += len(ours)
    assert rows_compared > 100_000  # every runtime key of ~2,000-3,000 operators


OUTCOMES = {"direct", "composite", "fallback", "fallthrough", "python", "composite_unknown",
            "autograd_not_implemented", "raises", "ambiguous", "composite_fails", "missing"}


@pytest.mark.parametrize("source", RELEASES)
def test_row_attributes_and_registrations(source):
    document = cli_json(["show", "aten::add*", "aten::nonzero", "aten::mm", "--format", "json", "-m", source])
    reg = dispatchctl.load(source)
    for op in document["operators"]:
        table = reg.table(op["name"])
        for expected in op["rows"]:
            row = table[expected["key"]]
            for field in FIELDS:
                assert getattr(row, field) == expected.get(field), (op["name"], expected["key"], field)
                assert row[field] == expected[field] if field in expected else True
        assert reg.operator(op["name"]).registrations == op["registrations"]
        assert reg.operator(op["name"]).schema == op["schema"]
        for registration in op["registrations"]:
            if registration["active"]:
                assert reg.has_kernel(op["name"], registration["key"])


@pytest.mark.parametrize("source", RELEASES)
def test_outcomes_equal_the_report(source):
    # Each row's outcome is the one report counts (every cell of report --format json), and
    # Registry.report() is that document.
    report = cli_json(["report", "--format", "json", "-m", source])
    reg = dispatchctl.load(source)
    assert reg.report() == report
    cells = 0
    for op in report["operators"]:
        table = reg.table(op["name"], all_keys=True)
        for cell in op["cells"]:
            assert table[cell["key"]].outcome == cell["outcome"], (op["name"], cell)
            cells += 1
    assert cells > 10_000
