"""NumPy's sorts, timed as bench/sort_test.go's BenchmarkSort times laze's:
the same cases, at 1e6 float64 uniform in [0, 1), into preallocated
destinations where NumPy allows, best of several runs, in ms. Run it on
one core (OMP_NUM_THREADS=1; np.sort is single-threaded anyway)."""
import timeit

import numpy as np

n, side = 1_000_000, 1000
x = np.random.default_rng(1).random(n)
m = x.reshape(side, side)
cases = {
    "sort": lambda: np.sort(x),
    "sort (stable)": lambda: np.sort(x, kind="stable"),
    "argsort": lambda: np.argsort(x, kind="stable"),
    "rows": lambda: np.sort(m, axis=1),
    "median": lambda: np.median(x),
}
for name, f in cases.items():
    best = min(timeit.repeat(f, number=3, repeat=5)) / 3
    print(f"{name:16s} {best * 1e3:8.3f} ms")
