"""pip's build of the Python module: the project's CMake, one target.

pyproject.toml holds the metadata; this file only turns `build_ext` into a
CMake build of `dispatchctl_python` (python/CMakeLists.txt) with the
interpreter pip runs, and copies the module into the wheel. The build tree
is build-python/ in the source folder (kept, so a second install is
incremental), or DISPATCHCTL_BUILD_DIR: a build tree configured with
-DDISPATCHCTL_PYTHON=ON, built as it is (the install test reuses ctest's).
"""
import os
import pathlib
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = pathlib.Path(__file__).resolve().parent


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        given = os.environ.get("DISPATCHCTL_BUILD_DIR")
        build_dir = pathlib.Path(given or ROOT / "build-python").resolve()
        configure = ["cmake", "-S", str(ROOT), "-B", str(build_dir), "-DCMAKE_BUILD_TYPE=Release",
                     "-DDISPATCHCTL_PYTHON=ON", f"-DPython3_EXECUTABLE={sys.executable}"]
        try:  # pybind11's CMake package as the pybind11 pip sees (Debian's, or an isolated build's)
            import pybind11
            configure.append(f"-Dpybind11_DIR={pybind11.get_cmake_dir()}")
        except ImportError:
            pass  # pybind11-dev's /usr/lib/cmake/pybind11
        if not (build_dir / "CMakeCache.txt").exists() and shutil.which("ninja"):
            configure += ["-G", "Ninja"]
        if not (given and (build_dir / "CMakeCache.txt").exists()):  # a given build tree keeps its configuration
            subprocess.run(configure, check=True, stdout=subprocess.DEVNULL)
        subprocess.run(["cmake", "--build", str(build_dir), "--target", "dispatchctl_python"], check=True)
        built = build_dir / "python" / "dispatchctl" / pathlib.Path(self.get_ext_filename(ext.name)).name
        target = pathlib.Path(self.get_ext_fullpath(ext.name))
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(built, target)


# setuptools' own scratch folders go beside the CMake tree, not into build/ (the usual CMake build folder).
SCRATCH = pathlib.Path(os.environ.get("DISPATCHCTL_BUILD_DIR") or ROOT / "build-python").resolve() / "setuptools"
setup(ext_modules=[Extension("dispatchctl._dispatchctl", sources=[])], cmdclass={"build_ext": CMakeBuild},
      options={"build": {"build_base": str(SCRATCH)}})
