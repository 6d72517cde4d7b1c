"""examples/python/test_backend_coverage.py, the suite a backend copies: green on the example
manifest; red, with explain's reasons in the report, when a kernel is removed from it."""
import json
import os
import subprocess
import sys

from conftest import ROOT

EXAMPLE = ROOT / "examples" / "python" / "test_backend_coverage.py"


def run_example(tmp_path, env_extra):
    env = {**os.environ, **env_extra}
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-rf", str(EXAMPLE)],
                          capture_output=True, text=True, env=env, cwd=tmp_path)


def test_example_is_green(tmp_path):
    done = run_example(tmp_path, {})
    assert done.returncode == 0, done.stdout + done.stderr
    assert " passed" in done.stdout and "failed" not in done.stdout


def test_example_fails_with_explains_reasons_when_a_kernel_is_removed(tmp_path):
    manifest = json.loads((ROOT / "examples" / "privateuse1_backend.json").read_text())
    for op in manifest["operators"]:
        if op["name"] == "aten::mm":
            op["kernels"] = [k for k in op["kernels"] if k["key"] != "PrivateUse1"]
    edited = tmp_path / "npu.json"
    edited.write_text(json.dumps(manifest))
    done = run_example(tmp_path, {"NPU_MANIFEST": str(edited)})
    assert done.returncode == 1, done.stdout + done.stderr
    out = done.stdout
    assert "1 failed" in out and "test_backend_kernel[aten::mm]" in out, out
    # has-kernel's answer, then explain's rule chain for that operator alone and what the row now runs.
    assert "aten::mm has no kernel registered at exactly PrivateUse1" in out, out
    assert "aten::mm at PrivateUse1: default backend kernel" in out, out
    assert "step 2 CompositeExplicitAutogradNonFunctional: chosen" in out, out
    assert "step 9 backend fallback: shadowed" in out, out
    assert "composite; needs aten::mm.out (fallback)" in out, out
    assert "aten::mm.dtype at PrivateUse1" not in out, out
