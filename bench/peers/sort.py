#!/usr/bin/env python3
"""NumPy's sorts, timed as bench/sort_test.go's BenchmarkSort times laze's
(BenchmarkSort/<case>/laze): the same cases at 1e6 float64 uniform in
[0, 1), in Go's benchmark format, one line per case:

    BenchmarkSort/sort/numpy-<threads>         np.sort(x), NumPy's default quicksort
    BenchmarkSort/sort/numpy-stable-<threads>  np.sort(x, kind="stable")
    BenchmarkSort/argsort/numpy-<threads>      np.argsort(x, kind="stable")
    BenchmarkSort/rows/numpy-<threads>         np.sort(m, axis=1), m 1000x1000
    BenchmarkSort/median/numpy-<threads>       np.median(x)

The -<threads> suffix is OPENBLAS_NUM_THREADS (default 1), as
bench/peers/structured.py writes it; np.sort is single-threaded anyway.
Each figure is the mean of --count timed runs after one untimed (benchfmt.py).
bench/report/run.sh runs this beside the Go benchmark on one core; --human
prints the best of several runs in ms instead, for reading."""
import argparse

import numpy as np

import benchfmt

n, side = 1_000_000, 1000


def cases():
    x = np.random.default_rng(1).random(n)
    m = x.reshape(side, side)
    return [
        ("sort", "numpy", lambda: np.sort(x)),
        ("sort", "numpy-stable", lambda: np.sort(x, kind="stable")),
        ("argsort", "numpy", lambda: np.argsort(x, kind="stable")),
        ("rows", "numpy", lambda: np.sort(m, axis=1)),
        ("median", "numpy", lambda: np.median(x)),
    ]


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--count", type=int, default=5, help="timed runs per case, after one untimed")
    p.add_argument("--human", action="store_true", help="best of 5 x 3 runs per case in ms, not Go's benchmark format")
    args = p.parse_args()
    if args.human:
        benchfmt.human(cases(), number=3)
    else:
        benchfmt.run("Sort", cases(), args.count)


if __name__ == "__main__":
    main()
