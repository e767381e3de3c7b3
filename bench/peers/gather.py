"""NumPy's fancy indexing, timed as bench/gather_test.go's BenchmarkGather
times laze's gathers: the same cases, into preallocated destinations
where NumPy allows (np.take(out=)), best of several runs, in ms."""
import timeit

import numpy as np

n, side = 1_000_000, 1000
rng = np.random.default_rng(1)
x = rng.random(n)
m = x.reshape(side, side)
idx = rng.integers(0, n, n)
rows = rng.integers(0, side, side)
y, y2 = np.empty(n), np.empty((side, side))
cases = {
    "take": lambda: np.take(x, idx, out=y),
    "take (x[idx])": lambda: x[idx],
    "rows": lambda: np.take(m, rows, axis=0, out=y2),
    "cols": lambda: np.take(m, rows, axis=1, out=y2),
    "fused": lambda: np.multiply(np.exp(x[idx]), 2, out=y),
}
for name, f in cases.items():
    best = min(timeit.repeat(f, number=20, repeat=5)) / 20
    print(f"{name:16s} {best * 1e3:8.3f} ms")
