"""The module's surface: InputError with the CLI's one-line messages (never an abort), views that
keep their registry alive, the Mapping protocol of tables, docstrings help() shows, notes."""
import collections.abc
import gc
import pydoc

import pytest

import dispatchctl
from conftest import ROOT, cli_error

MANIFESTS = ROOT / "tests" / "manifests"


def test_input_error_is_a_value_error():
    assert issubclass(dispatchctl.InputError, ValueError)


@pytest.mark.parametrize("manifest", ["check/invalid/syntax.json", "check/invalid/bad_key.json"])
def test_malformed_manifest_raises_the_cli_message(manifest):
    path = str(MANIFESTS / manifest)
    message = cli_error(["show", "aten::add.Tensor", "-m", path])
    assert path.split("/")[-1] in message
    with pytest.raises(dispatchctl.InputError) as raised:
        dispatchctl.load(path)
    assert str(raised.value) == message


def test_truncated_manifest_copy(tmp_path):
    # A manifest cut in the middle: the message names the file and the place, like the CLI's.
    broken = tmp_path / "npu.json"
    broken.write_text((ROOT / "examples" / "privateuse1_backend.json").read_text()[:300])
    message = cli_error(["show", "aten::mm", "-m", str(broken)])
    with pytest.raises(dispatchctl.InputError, match="npu.json") as raised:
        dispatchctl.load(str(broken))
    assert str(raised.value) == message


@pytest.mark.parametrize("call,cli", [
    (lambda r: r.table("aten::addd.Tensor"), ["show", "aten::addd.Tensor"]),
    (lambda r: r.has_kernel("aten::add.Tensor", "Metaa"), ["has-kernel", "aten::add.Tensor", "--key", "Metaa"]),
    (lambda r: r.has_kernel("aten::add", "CPU"), ["has-kernel", "aten::add", "--key", "CPU"]),
    (lambda r: r.trace("aten::add.Tensor", tensors=["cpy"]), ["trace", "aten::add.Tensor", "--tensor", "cpy"]),
    (lambda r: r.query(key="Meta", tags=["mising"]), ["query", "--key", "Meta", "--tag", "mising"]),
    (lambda r: r.explain("aten::mm", "Autogradd"), ["explain", "aten::mm", "--key", "Autogradd"]),
])
def test_bad_input_raises_the_cli_message(call, cli):
    reg = dispatchctl.load("builtin:2.14.1")
    with pytest.raises(dispatchctl.InputError) as raised:
        call(reg)
    assert str(raised.value) == cli_error(cli + ["-m", "builtin:2.14.1"])


def test_unknown_sources_and_options_raise_input_errors():
    with pytest.raises(dispatchctl.InputError, match="builtin:9.9"):
        dispatchctl.load("builtin:9.9")
    with pytest.raises(dispatchctl.InputError, match="layering"):
        dispatchctl.load(layering="sideways")
    with pytest.raises(dispatchctl.InputError):
        dispatchctl.load("/nonexistent/npu.json")
    with pytest.raises(dispatchctl.InputError):
        dispatchctl.load().has_kernel("aten::add.Tensor", "CPU", computed=True, works=True)


def test_table_is_a_mapping_of_rows_over_a_live_registry():
    table = dispatchctl.load("builtin:2.14.1").table("aten::add.Tensor")
    gc.collect()  # the registry is referenced only by the table now
    assert isinstance(table, collections.abc.Mapping)
    meta = table["Meta"]
    assert meta.key == "Meta" and meta.tag == "kernel" and meta.language == "python"
    assert meta.outcome == "python"
    assert "CPU" in table and "NotAKey" not in table
    assert table.get("NotAKey") is None
    with pytest.raises(KeyError):
        table["NotAKey"]
    assert list(table) == table.keys() and len(table) == len(table.values())
    assert [k for k, _ in table.items()] == table.keys()
    assert table.operator == "aten::add.Tensor"
    everything = dispatchctl.load("builtin:2.14.1").table("aten::add.Tensor", all_keys=True)
    missing = [row for row in everything.values() if not row.valid]
    assert missing and all(row.tag_id == "missing" and row.kernel is None for row in missing)


def test_spellings_of_an_operator():
    reg = dispatchctl.load("builtin:2.14.1")
    for spelling in ["aten::add.Tensor", "torch.ops.aten.add.Tensor", "aten.add.Tensor"]:
        assert reg.table(spelling).operator == "aten::add.Tensor"
    assert reg.operator("aten::nonzero").name == "aten::nonzero"
    assert "aten::add.Tensor" in reg and len(reg) == len(reg.operators())
    assert repr(reg) == f"<Registry builtin:2.14.1 (torch 2.14.1): {len(reg)} operators>"
    everything = reg.table("aten::add.Tensor", all_keys=True)
    assert list(everything) == [k for k in reg.runtime_keys() if k in everything]
    assert len(everything) == len(reg.runtime_keys())


def test_defaults_and_builtins():
    assert dispatchctl.DEFAULT_REGISTRY in dispatchctl.builtin_registries()
    assert dispatchctl.load().sources == [dispatchctl.DEFAULT_REGISTRY]
    assert "builtin:1.13.1" in dispatchctl.builtin_registries()


def test_layering_notes():
    reg = dispatchctl.load(str(ROOT / "examples" / "privateuse1_backend.json"))
    assert reg.torch_version == "2.14.1"
    assert any("builtin:2.14.1" in note for note in reg.notes), reg.notes
    assert reg.has_kernel("aten::mm", "AutogradPrivateUse1")


def test_help_shows_docstrings():
    text = pydoc.render_doc(dispatchctl.Registry, renderer=pydoc.plaintext)
    for words in ["has_kernel(", "_dispatch_has_kernel_for_dispatch_key", "explain(", "trace(", "query("]:
        assert words in text
    assert "from_torch" in pydoc.render_doc(dispatchctl, renderer=pydoc.plaintext)


def test_diff_and_check_return_the_documented_json():
    result = dispatchctl.diff("builtin:1.13.1", "builtin:2.14.1", ops=["aten::add.Tensor"], summary=True)
    assert result["schema_version"] == 1 and "summary" in result or "operators" in result
    findings = dispatchctl.check(str(MANIFESTS / "check" / "dangling_impl.json"))
    assert findings["findings"] and all("rule" in f for f in findings["findings"])


def test_readme_example_runs(monkeypatch, capsys):
    # README's "Python" section's example, as written (from the source folder: it names examples/).
    readme = (ROOT / "README.md").read_text()
    section = readme[readme.index("## Python: `import dispatchctl`"):]
    code = section[section.index("```python\n") + len("```python\n"):section.index("```\n", section.index("```python"))]
    monkeypatch.chdir(ROOT)
    exec(compile(code, "README.md", "exec"), {})
    assert "registered at" in capsys.readouterr().out
