#!/usr/bin/python3
"""NumPy and numexpr on bench/'s elementwise cases, in Go's benchmark format.

bench/report/run.sh runs this beside the Go suite (BenchmarkElementwise in
bench/bench_test.go), once per pass and thread count, and appends its output
to the same raw file, so that bench/report reads NumPy and numexpr as two
more implementations of each case:

    BenchmarkElementwise/<case>/numpy/<n>-<threads>    <iters>  <t> ns/op  <s> MB/s
    BenchmarkElementwise/<case>/numexpr/<n>-<threads>  <iters>  <t> ns/op  <s> MB/s

The -<threads> suffix is the thread count the peer was given, as go test
prints GOMAXPROCS (go test leaves out -1; this script does not, and the
report reads both alike). NumPy's ufuncs run on one thread whatever the
count; numexpr runs on ne.set_num_threads(threads). MB/s counts the bytes
a run must read and write, as b.SetBytes does in the Go suite.

The cases are the Go suite's, with the same sizes, dtypes and shapes (the
data is random, not the same draws): the NumPy code is what a NumPy user
writes, ufuncs in place with out= and temporaries allocated once outside
the timed loop; numexpr's is ne.evaluate(expr, out=dst). Before timing, each
implementation's result is checked once per case against a plain NumPy
reference; one that disagrees is reported on stderr and not timed.

The repetitions follow Go's -benchtime: one run, then runs of growing
counts (the next count predicted from the last, at most 100 times it, plus
a fifth) until one count lasts the benchtime; the last count is reported.

Without numexpr the script prints the NumPy figures alone, a config line
"numexpr: missing", and a warning on stderr. Usage:

    /usr/bin/python3 bench/peers/peers.py [--threads K] [--benchtime 0.2]
        [--sizes 1000,10000] [--cases add,poly4] [--impls numpy,numexpr]
"""

import argparse
import gc
import math
import os
import platform
import sys
import time

try:
    import numpy as np
except ImportError:  # run.sh checks first; this is for a direct run
    sys.exit("peers.py: NumPy is missing: `make bench-deps` installs python3-numpy and python3-numexpr")

try:
    import numexpr as ne
except ImportError:
    ne = None

SIZES = [1000, 10000, 100000, 1000000, 10000000]
ALPHA = 2.5


class Case:
    """One case at one size: its inputs, destination and implementations.

    impls maps an implementation's name to a function of no arguments that
    writes the result into dst; ref is NumPy's plain expression of the case,
    evaluated once, for the check.
    """

    def __init__(self, nbytes, dst, impls, ref, rtol=1e-12, margin=None):
        self.nbytes = nbytes
        self.dst = dst
        self.impls = impls
        self.ref = ref
        self.rtol = rtol
        self.margin = margin  # for a comparison: how far each element is from its boundary


def rand(rng, n, dtype=np.float64):
    return rng.random(n).astype(dtype, copy=False)


def case_add(n, rng):
    a, b, d = rand(rng, n), rand(rng, n), np.empty(n)
    return Case(3 * 8 * n, d, {
        "numpy": lambda: np.add(a, b, out=d),
        "numexpr": lambda: ne.evaluate("a + b", local_dict={"a": a, "b": b}, out=d),
    }, a + b)


def case_axpy(n, rng):
    x, y, d = rand(rng, n), rand(rng, n), np.empty(n)
    return Case(3 * 8 * n, d, {
        "numpy": lambda: (np.multiply(x, ALPHA, out=d), np.add(d, y, out=d)),
        "numexpr": lambda: ne.evaluate("2.5*x + y", local_dict={"x": x, "y": y}, out=d),
    }, ALPHA * x + y)


def poly4(n, rng, dtype, width):
    a, b, c, e = (rand(rng, n, dtype) for _ in range(4))
    d = np.empty(n, dtype)

    def numpy_poly4():
        np.multiply(a, b, out=d)
        np.add(d, c, out=d)
        np.subtract(d, e, out=d)

    return Case(5 * width * n, d, {
        "numpy": numpy_poly4,
        "numexpr": lambda: ne.evaluate("a*b + c - e", local_dict={"a": a, "b": b, "c": c, "e": e}, out=d),
    }, a * b + c - e, rtol=1e-12 if dtype == np.float64 else 1e-5)


def case_poly4(n, rng):
    return poly4(n, rng, np.float64, 8)


def case_poly4f32(n, rng):
    return poly4(n, rng, np.float32, 4)


def case_long8(n, rng):
    a, b, c, e = (rand(rng, n) for _ in range(4))
    d, t1, t2 = np.empty(n), np.empty(n), np.empty(n)

    def numpy_long8():
        np.multiply(a, b, out=t1)
        np.add(t1, c, out=t1)
        np.tanh(t1, out=t1)
        np.multiply(e, 0.5, out=t2)
        np.exp(t2, out=t2)
        np.multiply(t2, a, out=t2)
        np.subtract(t1, t2, out=d)
        np.add(d, b, out=d)

    return Case(5 * 8 * n, d, {
        "numpy": numpy_long8,
        "numexpr": lambda: ne.evaluate("tanh(a*b + c) - exp(e*0.5)*a + b",
                                       local_dict={"a": a, "b": b, "c": c, "e": e}, out=d),
    }, np.tanh(a * b + c) - np.exp(e * 0.5) * a + b, rtol=1e-10)


def case_bcast(n, rng):
    cols = 1000
    rows = max(n // cols, 1)
    a, r = rand(rng, rows * cols).reshape(rows, cols), rand(rng, cols)
    d = np.empty((rows, cols))
    return Case(2 * 8 * rows * cols, d, {
        "numpy": lambda: np.add(a, r, out=d),
        "numexpr": lambda: ne.evaluate("a + r", local_dict={"a": a, "r": r}, out=d),
    }, a + r)


def case_transpose(n, rng):
    m = int(round(math.sqrt(n)))
    a, b = rand(rng, m * m).reshape(m, m), rand(rng, m * m).reshape(m, m)
    at = a.T
    d = np.empty((m, m))
    return Case(3 * 8 * m * m, d, {
        "numpy": lambda: np.add(at, b, out=d),
        "numexpr": lambda: ne.evaluate("at + b", local_dict={"at": at, "b": b}, out=d),
    }, a.T + b)


def case_cmp(n, rng):
    # numexpr's headline; the Go suite writes 1 or 0 in float64, so both
    # peers write the bool result cast to float64 into a float64 dst.
    a, b = rng.standard_normal(n), rng.standard_normal(n)
    d, t1, t2 = np.empty(n), np.empty(n), np.empty(n)

    def numpy_cmp():
        np.multiply(a, b, out=t1)
        np.multiply(a, 4.1, out=t2)
        np.subtract(t1, t2, out=t1)
        np.multiply(b, 2.5, out=t2)
        np.greater(t1, t2, out=d)

    lhs, rhs = a * b - 4.1 * a, 2.5 * b
    return Case(3 * 8 * n, d, {
        "numpy": numpy_cmp,
        "numexpr": lambda: ne.evaluate("a*b - 4.1*a > 2.5*b", local_dict={"a": a, "b": b}, out=d),
    }, (lhs > rhs).astype(np.float64), margin=np.abs(lhs - rhs) / (np.abs(lhs) + np.abs(rhs) + 1))


# The cases in the Go suite's order (bench/cases_test.go).
CASES = {
    "add": case_add,
    "axpy": case_axpy,
    "poly4": case_poly4,
    "poly4f32": case_poly4f32,
    "long8": case_long8,
    "bcast": case_bcast,
    "transpose": case_transpose,
    "cmp": case_cmp,
}


def check(name, impl, c):
    """Runs impl once and compares c.dst with the reference; returns an
    error message, or None when they agree."""
    c.dst.fill(np.nan)
    try:
        c.impls[impl]()
    except Exception as err:  # a peer that cannot run the case is skipped, not fatal
        return "%s/%s: %s: %s" % (name, impl, type(err).__name__, err)
    got, want = c.dst.astype(np.float64), c.ref.astype(np.float64)
    if got.shape != want.shape:
        return "%s/%s: shape %s, reference %s" % (name, impl, got.shape, want.shape)
    bad = ~(np.abs(got - want) <= c.rtol * np.maximum(1, np.abs(want)))
    if c.margin is not None:  # a comparison may round the other way at its boundary
        bad &= c.margin.reshape(bad.shape) > 1e-12
    if bad.any():
        i = np.flatnonzero(bad)[0]
        return "%s/%s: %d of %d elements differ from the NumPy reference, first at %d: %r, want %r" % (
            name, impl, int(bad.sum()), bad.size, i, got.flat[i], want.flat[i])
    return None


def predict(goal, prev_iters, prev_sec, last):
    """Go's predictN (testing/benchmark.go): the next iteration count."""
    prev_sec = max(prev_sec, 1e-9)
    n = int(goal * prev_iters / prev_sec)
    n += n // 5
    n = min(n, 100 * last)
    n = max(n, last + 1)
    return min(n, 1_000_000_000)


def timed(fn, n):
    t0 = time.perf_counter()
    for _ in range(n):
        fn()
    return time.perf_counter() - t0


def measure(fn, benchtime):
    """Runs fn as go test -benchtime does; returns (iterations, seconds)."""
    n, sec = 1, timed(fn, 1)
    while sec < benchtime and n < 1_000_000_000:
        n = predict(benchtime, n, sec, n)
        sec = timed(fn, n)
    return n, sec


def cpu_name():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--threads", type=int, default=1, help="numexpr's thread count, and the -N suffix")
    p.add_argument("--benchtime", type=float, default=0.2, help="seconds per benchmark, as go test -benchtime")
    p.add_argument("--sizes", default=",".join(map(str, SIZES)))
    p.add_argument("--cases", default=",".join(CASES))
    p.add_argument("--impls", default="numpy,numexpr")
    args = p.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    impls = args.impls.split(",")
    for name in args.cases.split(","):
        if name not in CASES:
            sys.exit("peers.py: unknown case %r (cases: %s)" % (name, ", ".join(CASES)))

    out = sys.stdout
    print("goos: %s" % sys.platform, file=out)
    print("goarch: %s" % {"x86_64": "amd64", "aarch64": "arm64"}.get(platform.machine(), platform.machine()), file=out)
    print("pkg: github.com/laze-go/laze/bench/peers", file=out)
    print("cpu: %s" % cpu_name(), file=out)
    print("python: %s" % platform.python_version(), file=out)
    print("numpy: %s" % np.__version__, file=out)
    if ne is None:
        print("numexpr: missing", file=out)
        print("peers.py: warning: numexpr is missing (`make bench-deps` installs python3-numexpr); NumPy only",
              file=sys.stderr)
        impls = [im for im in impls if im != "numexpr"]
    else:
        ne.set_num_threads(args.threads)
        print("numexpr: %s" % ne.__version__, file=out)
        print("numexpr-threads: %d" % args.threads, file=out)
    out.flush()

    failed = False
    rng = np.random.default_rng(1)
    for name in args.cases.split(","):
        checked = {}
        for n in sizes:
            c = CASES[name](n, rng)
            for impl in impls:
                if impl not in checked:  # once per case, at its smallest size
                    err = check(name, impl, c)
                    checked[impl] = err is None
                    if err:
                        print("peers.py: not timed: " + err, file=sys.stderr)
                        failed = True
                if not checked[impl]:
                    continue
                gc.disable()
                try:
                    iters, sec = measure(c.impls[impl], args.benchtime)
                finally:
                    gc.enable()
                per = sec / iters
                print("BenchmarkElementwise/%s/%s/%d-%d \t%8d\t%12.1f ns/op\t%9.2f MB/s" % (
                    name, impl, n, args.threads, iters, per * 1e9, c.nbytes / per / 1e6), file=out)
                out.flush()
            del c
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
