"""NumPy's side of bench/ufunc_test.go's BenchmarkUfunc: y = np.f(x, out=y)
at 1e6 elements, float64 and float32, on the inputs the Go benchmark uses
(uniform in each function's domain). Prints "name/dtype ns_per_op" lines,
the best of 7 repeats of a timed loop."""
import sys
import timeit
import numpy as np

DOMAIN = {'arccosh': (1, 10), 'arcsin': (-1, 1), 'arccos': (-1, 1), 'arctanh': (-0.99, 0.99),
          'log': (0.01, 100), 'log2': (0.01, 100), 'log10': (0.01, 100), 'log1p': (-0.5, 100),
          'sqrt': (0, 100), 'exp': (-50, 50), 'exp2': (-50, 50), 'expm1': (-50, 50),
          'sinh': (-50, 50), 'cosh': (-50, 50)}
NAMES = sys.argv[1:] or ['exp', 'log', 'sin', 'cos', 'tanh', 'log10', 'log2', 'cosh', 'sinh', 'exp2',
                         'expm1', 'log1p', 'tan', 'arctan', 'arcsin', 'arccos', 'arcsinh', 'arccosh',
                         'arctanh', 'cbrt', 'power', 'arctan2', 'hypot', 'logaddexp', 'logaddexp2']
BINARY = {'power': (0.01, 10), 'arctan2': (-10, 10), 'hypot': (-10, 10), 'logaddexp': (-10, 10),
          'logaddexp2': (-10, 10)}  # x's range; y is uniform in [-10, 10)
n = 1_000_000
rng = np.random.default_rng(1)
for name in NAMES:
    f = getattr(np, name)
    lo, hi = DOMAIN.get(name, (-10, 10))
    for dt in (np.float64, np.float32):
        if name in BINARY:
            lo, hi = BINARY[name]
            x = (lo + (hi - lo) * rng.random(n)).astype(dt)
            x2 = (-10 + 20 * rng.random(n)).astype(dt)
            y = np.empty_like(x)
            with np.errstate(all='ignore'):
                t = min(timeit.repeat(lambda: f(x, x2, out=y), number=10, repeat=7)) / 10
            print(f'{name}/{np.dtype(dt).name} {t * 1e9:.0f}')
            continue
        x = (lo + (hi - lo) * rng.random(n)).astype(dt)
        y = np.empty_like(x)
        with np.errstate(all='ignore'):
            t = min(timeit.repeat(lambda: f(x, out=y), number=10, repeat=7)) / 10
        print(f'{name}/{np.dtype(dt).name} {t * 1e9:.0f}')
