#!/usr/bin/python3
"""Writes a large, deterministic manifest of small custom operators (the
streaming-load benchmark of bench/run.py; never committed as data).

  bench/gen_big_manifest.py OUT.json [--operators 1000000]

Every operator has a schema and a CPU kernel; every fourth one a Meta kernel
too, every eighth an autograd kernel. About 200 bytes per operator: the
default million makes ~200 MB. The operators are not aten::, so the
manifest is layered over builtin:2.14.1 like a real extension's.
"""
import argparse


def operator_line(i):
    kernels = [f'{{"key": "CPU", "kernel": "x_op_{i}_cpu registered at x/ops.cpp:{i}"}}']
    if i % 4 == 0:
        kernels.append(f'{{"key": "Meta", "kernel": "x_op_{i}_meta registered at x/meta.cpp:{i}"}}')
    if i % 8 == 0:
        kernels.append(f'{{"key": "AutogradCPU", "kernel": "x_op_{i}_grad registered at x/grad.cpp:{i}"}}')
    return (f'{{"name": "x::op_{i}", "schema": "x::op_{i}(Tensor self, int n=1) -> Tensor", '
            f'"kernels": [{", ".join(kernels)}]}}')


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out")
    parser.add_argument("--operators", type=int, default=1_000_000)
    args = parser.parse_args()
    with open(args.out, "w") as f:
        f.write('{"dispatchctl_manifest": 1, "torch_version": "2.14.1",\n"operators": [\n')
        f.write(",\n".join(operator_line(i) for i in range(args.operators)))
        f.write("\n]}\n")


if __name__ == "__main__":
    main()
