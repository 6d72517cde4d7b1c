"""`pip install --no-build-isolation .` into a fresh venv (with the system site packages, as
offline Debian users make one), then the issue's one-liner, run from outside the source tree.
The module is built by setup.py in ctest's build tree (DISPATCHCTL_BUILD_DIR), so this checks
the packaging, not a second compile of the library; a clone builds it in build-python/."""
import os
import subprocess

from conftest import ROOT

ONE_LINER = "import dispatchctl; print(dispatchctl.load('builtin:2.14.1').table('aten::add.Tensor')['Meta'])"


def test_pip_install_then_the_one_liner(tmp_path):
    venv = tmp_path / "venv"
    subprocess.run(["/usr/bin/python3", "-m", "venv", "--system-site-packages", str(venv)], check=True)
    python = str(venv / "bin" / "python3")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    subprocess.run([python, "-m", "pip", "install", "-q", "--no-build-isolation", "--no-index", str(ROOT)],
                   check=True, env=env, cwd=tmp_path)
    done = subprocess.run([python, "-c", ONE_LINER + "; print(dispatchctl.__file__)"], capture_output=True,
                          text=True, env=env, cwd=tmp_path, check=True)
    row, where = done.stdout.splitlines()
    assert row == "<Row Meta: kernel>"
    assert where.startswith(str(venv)), where  # the installed copy, not the build tree's
    typed = subprocess.run([python, "-c", "import dispatchctl, pathlib; p = pathlib.Path(dispatchctl.__file__).parent;"
                            "print((p / 'py.typed').exists(), (p / '_dispatchctl.pyi').exists())"],
                           capture_output=True, text=True, env=env, cwd=tmp_path, check=True)
    assert typed.stdout.split() == ["True", "True"]
