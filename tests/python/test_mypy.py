"""Debian's mypy accepts the package (its annotations, the extension's .pyi stubs) and code
written against it (typed_usage.py) under --strict, and rejects misuse: the stubs type the API."""
import os
import subprocess
import sys

from conftest import ROOT

HERE = ROOT / "tests" / "python"


def mypy(*paths):
    env = {**os.environ, "MYPYPATH": str(ROOT / "python")}
    return subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--cache-dir", os.devnull,
                           *map(str, paths)], capture_output=True, text=True, env=env, cwd=ROOT)


def test_package_and_typed_usage_pass():
    done = mypy(ROOT / "python" / "dispatchctl", HERE / "typed_usage.py")
    assert done.returncode == 0, done.stdout + done.stderr


def test_misuse_is_rejected(tmp_path):
    wrong = tmp_path / "wrong.py"
    wrong.write_text("import dispatchctl\n"
                     "reg = dispatchctl.load('builtin:2.14.1')\n"
                     "n: int = reg.table('aten::mm')['CPU'].kernel\n"
                     "reg.has_kernel('aten::mm', 3)\n"
                     "reg.trace('aten::mm', tensors='cpu', no_grad='yes')\n")
    done = mypy(wrong)
    assert done.returncode == 1
    assert 'Incompatible types in assignment (expression has type "Optional[str]"' in done.stdout, done.stdout
    assert 'Argument 2 to "has_kernel" of "Registry" has incompatible type "int"' in done.stdout, done.stdout
    assert 'Argument "no_grad" to "trace" of "Registry" has incompatible type "str"' in done.stdout, done.stdout
