#!/usr/bin/env python3
"""Record what the real gen_backend_stubs registers for each backend YAML.

Run with the Python whose torchgen is the release to record (see README.md):
    python3 record.py YAML_DIR OUT_DIR
For every YAML_DIR/NAME.yaml it runs `python3 -m torchgen.gen_backend_stubs`
into a scratch directory and writes, from the generated Register<Key>.cpp files:
    OUT_DIR/NAME.<Key>.txt   the operators registered at <Key>, one
                             "aten::NAME.OVERLOAD" a line, sorted
for the YAML's backend key and its Autograd<backend> key (an empty file when
the generator wrote no Register<Key>.cpp), or, when the generator fails,
    OUT_DIR/NAME.error       the exception line of its error output.
OUT_DIR/VERSION holds torch.__version__. Nothing here reads dispatchctl.
"""
import pathlib
import re
import subprocess
import sys
import tempfile

import torch
import torchgen
import yaml

IMPL = re.compile(r'm\.impl\("([^"]+)"')
LIBRARY_IMPL = re.compile(r"TORCH_LIBRARY_IMPL\(aten, (\w+), m\)")


def registrations(register_cpp: pathlib.Path):
    text = register_cpp.read_text()
    keys = LIBRARY_IMPL.findall(text)
    expected_key = register_cpp.stem[len("Register"):]
    if keys != [expected_key]:
        sys.exit(f"{register_cpp}: expected one TORCH_LIBRARY_IMPL(aten, {expected_key}, m), found {keys}")
    return sorted("aten::" + name for name in IMPL.findall(text))


def pytorch_root(scratch: pathlib.Path) -> pathlib.Path:
    """A source-tree layout around the installed torchgen: 1.13's gen_backend_stubs
    reads PYTORCH_ROOT/aten/src/ATen, which an installed torchgen ships as torchgen/packaged/ATen."""
    package = pathlib.Path(torchgen.__file__).parent
    (scratch / "aten/src").mkdir(parents=True)
    (scratch / "torchgen").symlink_to(package)
    (scratch / "aten/src/ATen").symlink_to(package / "packaged/ATen")
    return scratch


def record(yaml_path: pathlib.Path, out_dir: pathlib.Path):
    backend = yaml.safe_load(yaml_path.read_text())["backend"]
    for stale in out_dir.glob(yaml_path.stem + ".*"):
        stale.unlink()
    with tempfile.TemporaryDirectory() as scratch:
        root = pytorch_root(pathlib.Path(scratch) / "root")
        generated = pathlib.Path(scratch) / "generated"
        generated.mkdir()
        run = subprocess.run([sys.executable, "-m", "torchgen.gen_backend_stubs", "-s", str(yaml_path.absolute()),
                              "-o", str(generated)], capture_output=True, text=True, cwd=root)
        if run.returncode != 0:
            # The exception's own line, not the native_functions.yaml context torchgen appends.
            errors = [line for line in run.stderr.splitlines() if re.match(r"\w+(Error|Exception): ", line)]
            last = (errors[-1] if errors else run.stderr.strip().splitlines()[-1]).replace(str(root), "PYTORCH_ROOT")
            (out_dir / f"{yaml_path.stem}.error").write_text(last + "\n")
            return f"error: {last}"
        counts = []
        for key in (backend, "Autograd" + backend):
            cpp = generated / f"Register{key}.cpp"
            ops = registrations(cpp) if cpp.exists() else []
            (out_dir / f"{yaml_path.stem}.{key}.txt").write_text("".join(op + "\n" for op in ops))
            counts.append(f"{key} {len(ops)}")
        return ", ".join(counts)


def main():
    yaml_dir, out_dir = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / "VERSION").write_text(torch.__version__ + "\n")
    for yaml_path in sorted(yaml_dir.glob("*.yaml")):
        print(f"{yaml_path.name}: {record(yaml_path, out_dir)}")


if __name__ == "__main__":
    main()
