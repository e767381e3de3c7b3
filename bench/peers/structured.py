#!/usr/bin/env python3
"""NumPy's structured functions inside a small tree, f(x) * 2 + 1 at about
1e6 float64 elements, in Go's benchmark format:
BenchmarkStructured/<f>/numpy-<threads>, beside bench/structured_test.go's
laze figures (BenchmarkStructured/<f>/{laze,tensors}). NumPy computes f(x)
into a new array, then the tree with its temporaries; nothing is
preallocated, as a NumPy user writes it."""
import argparse

import numpy as np

import benchfmt

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
    benchfmt.header()
    rng = np.random.default_rng(1)
    for name, shape, f in CASES:
        x = rng.random(shape)
        benchfmt.line("Structured/%s/numpy" % name, args.count, benchfmt.mean_ns(lambda: f(x) * 2 + 1, args.count))


if __name__ == "__main__":
    main()
