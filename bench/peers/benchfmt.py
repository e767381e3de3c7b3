"""Go's benchmark output for the NumPy peers of bench/report (gather.py,
sort.py, structured.py, einsum.py): the header bench/report reads, then one
line per case,

    Benchmark<name>-<threads> \t<runs>\t<ns> ns/op

where <threads> is OPENBLAS_NUM_THREADS (default 1) and <ns> the mean of
<runs> timed runs after one untimed; and the --human form, the best of
several repeats in ms, for reading."""
import os
import time
import timeit

import numpy as np


def threads():
    """OPENBLAS_NUM_THREADS, the suffix of every benchmark name (default 1)."""
    return int(os.environ.get("OPENBLAS_NUM_THREADS", "1"))


def header():
    """The lines bench/report reads before the benchmarks."""
    print("pkg: github.com/laze-go/laze/bench/peers")
    print("numpy: %s" % np.__version__)


def mean_ns(f, count):
    """The mean time of count runs of f after one untimed, in ns."""
    f()
    start = time.perf_counter()
    for _ in range(count):
        f()
    return (time.perf_counter() - start) / count * 1e9


def line(name, count, ns):
    """One benchmark line: Benchmark<name>-<threads>, count runs, ns each."""
    print("Benchmark%s-%d \t%8d\t%12.1f ns/op" % (name, threads(), count, ns), flush=True)


def run(bench, cases, count):
    """The header, then each (case, impl, f) of cases timed as
    Benchmark<bench>/<case>/<impl>."""
    header()
    for case, impl, f in cases:
        line("%s/%s/%s" % (bench, case, impl), count, mean_ns(f, count))


def human(cases, number, repeat=5):
    """Each (case, impl, f) of cases as the best of repeat × number runs, in ms."""
    for case, impl, f in cases:
        best = min(timeit.repeat(f, number=number, repeat=repeat)) / number
        print(f"{case + '/' + impl:16s} {best * 1e3:8.3f} ms")
