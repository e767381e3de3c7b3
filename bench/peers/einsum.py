#!/usr/bin/env python3
"""np.einsum('ij,jk->ik', a, b) and np.matmul(a, b) on n x n float64
matrices, in Go's benchmark format: BenchmarkEinsum/float64/<n>/{numpy-einsum,
numpy-matmul}-<threads>, beside bench/einsum_test.go's laze figures
(BenchmarkEinsum/float64/<n>/{einsum,einsum-build,matmul}). Run it with
OPENBLAS_NUM_THREADS=1 to compare with `go test -cpu 1`. np.einsum with its
default optimize=False does not call BLAS for two operands; optimize=True
(numpy-einsum-opt) does, through tensordot."""
import argparse
import sys

import numpy as np

import benchfmt


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--sizes", default="256,512")
    p.add_argument("--count", type=int, default=5, help="timed runs per size, after one untimed")
    args = p.parse_args()
    benchfmt.header()
    rng = np.random.default_rng(1)
    for n in map(int, args.sizes.split(",")):
        a, b = rng.random((n, n)), rng.random((n, n))
        want = a @ b
        impls = [
            ("numpy-einsum", lambda: np.einsum("ij,jk->ik", a, b)),
            ("numpy-einsum-opt", lambda: np.einsum("ij,jk->ik", a, b, optimize=True)),
            ("numpy-matmul", lambda: np.matmul(a, b)),
        ]
        for name, f in impls:
            if not np.allclose(f(), want, rtol=1e-12, atol=0):
                print("einsum.py: %s %d: wrong result" % (name, n), file=sys.stderr)
                continue
            benchfmt.line("Einsum/float64/%d/%s" % (n, name), args.count, benchfmt.mean_ns(f, args.count))


if __name__ == "__main__":
    main()
