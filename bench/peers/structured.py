#!/usr/bin/env python3
"""NumPy's structured functions inside a small tree, f(x) * 2 + 1 at about
1e6 float64 elements, in Go's benchmark format:
BenchmarkStructured/<f>/numpy-<threads>, beside bench/structured_test.go's
laze figures (BenchmarkStructured/<f>/{laze,tensors}). NumPy computes f(x)
into a new array, then the tree with its temporaries; nothing is
preallocated, as a NumPy user writes it."""
import argparse
import os
import time

import numpy as np

CASES = [
    ("pad-constant", (998, 998), lambda x: np.pad(x, 1)),
    ("pad-reflect", (996, 996), lambda x: np.pad(x, 2, mode="reflect")),
    ("tile", (500, 1000), lambda x: np.tile(x, (2, 1))),
    ("repeat", (1000, 500), lambda x: np.repeat(x, 2, axis=1)),
    ("roll", (1000, 1000), lambda x: np.roll(x, 3, axis=1)),
    ("diff", (1000, 1001), lambda x: np.diff(x, axis=1)),
]


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--count", type=int, default=20, help="timed runs per case, after one untimed")
    args = p.parse_args()
    threads = int(os.environ.get("OPENBLAS_NUM_THREADS", "1"))
    print("pkg: github.com/laze-go/laze/bench/peers")
    print("numpy: %s" % np.__version__)
    rng = np.random.default_rng(1)
    for name, shape, f in CASES:
        x = rng.random(shape)
        run = lambda: f(x) * 2 + 1
        run()
        start = time.perf_counter()
        for _ in range(args.count):
            run()
        ns = (time.perf_counter() - start) / args.count * 1e9
        print("BenchmarkStructured/%s/numpy-%d \t%8d\t%12.1f ns/op" % (name, threads, args.count, ns), flush=True)


if __name__ == "__main__":
    main()
