#!/usr/bin/env python3
"""OpenBLAS's n x n x n product through NumPy, on the thread count the
environment gives it (bench/report/run.sh sets OPENBLAS_NUM_THREADS=1), in
Go's benchmark format: BenchmarkGemm/<dtype>/<n>/openblas-<threads>, the
names bench/gemm_test.go gives laze's and gonum's products, so that the
report puts them in one table. The product is checked against a float64
one before it is timed."""
import argparse
import os
import time

import numpy as np


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--sizes", default="256,512,1024,2048")
    p.add_argument("--count", type=int, default=3, help="timed products per size, after one untimed")
    args = p.parse_args()
    threads = int(os.environ.get("OPENBLAS_NUM_THREADS", "1"))
    print("pkg: github.com/laze-go/laze/bench/peers")
    print("numpy: %s" % np.__version__)
    rng = np.random.default_rng(1)
    for dtype in (np.float64, np.float32):
        for n in map(int, args.sizes.split(",")):
            a = rng.random((n, n)).astype(dtype)
            b = rng.random((n, n)).astype(dtype)
            c = np.empty((n, n), dtype)
            np.matmul(a, b, out=c)
            want = a.astype(np.float64) @ b.astype(np.float64)
            rel = np.abs(c - want).max() / np.abs(want).max()
            if rel > (1e-5 if dtype == np.float32 else 1e-12):
                print("gemm.py: %s %d: relative error %g" % (np.dtype(dtype).name, n, rel))
                continue
            start = time.perf_counter()
            for _ in range(args.count):
                np.matmul(a, b, out=c)
            ns = (time.perf_counter() - start) / args.count * 1e9
            print("BenchmarkGemm/%s/%d/openblas-%d \t%8d\t%12.1f ns/op" % (np.dtype(dtype).name, n, threads, args.count, ns), flush=True)


if __name__ == "__main__":
    main()
