#!/usr/bin/env python3
"""NumPy's fancy indexing, timed as bench/gather_test.go's BenchmarkGather
times laze's gathers (BenchmarkGather/<case>/laze): the same cases at 1e6
float64 elements, in Go's benchmark format, one line per case and form:

    BenchmarkGather/<case>/numpy-<threads>       x[idx], m[idx], m[:, idx] as a NumPy user writes them
    BenchmarkGather/<case>/numpy-take-<threads>  np.take(..., out=) into a preallocated destination

(fused, exp(x[idx]) * 2, has the first form only, written into a
preallocated destination with out=). The -<threads> suffix is
OPENBLAS_NUM_THREADS (default 1), as bench/peers/structured.py writes it;
NumPy's indexing runs on one thread whatever it is. Each figure is the mean
of --count timed runs after one untimed (benchfmt.py). bench/report/run.sh runs this
beside the Go benchmark on one core; --human prints the best of several
runs in ms instead, for reading."""
import argparse

import numpy as np

import benchfmt

n, side = 1_000_000, 1000


def cases():
    rng = np.random.default_rng(1)
    x = rng.random(n)
    m = x.reshape(side, side)
    idx = rng.integers(0, n, n)
    rows = rng.integers(0, side, side)
    y, y2 = np.empty(n), np.empty((side, side))
    return [
        ("take", "numpy", lambda: x[idx]),
        ("take", "numpy-take", lambda: np.take(x, idx, out=y)),
        ("rows", "numpy", lambda: m[rows]),
        ("rows", "numpy-take", lambda: np.take(m, rows, axis=0, out=y2)),
        ("cols", "numpy", lambda: m[:, rows]),
        ("cols", "numpy-take", lambda: np.take(m, rows, axis=1, out=y2)),
        ("fused", "numpy", lambda: np.multiply(np.exp(x[idx]), 2, out=y)),
    ]


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--count", type=int, default=20, help="timed runs per case, after one untimed")
    p.add_argument("--human", action="store_true", help="best of 5 x 20 runs per case in ms, not Go's benchmark format")
    args = p.parse_args()
    if args.human:
        benchfmt.human(cases(), number=20)
    else:
        benchfmt.run("Gather", cases(), args.count)


if __name__ == "__main__":
    main()
