#!/usr/bin/env python3
"""PyTorch reference for the GPU suite (bench/cuda_test.go), run in the same
session as the Go suite (bench/gpu/suite.sh does both):

    python3 torch_bench.py [--runs 10] [--reps 20] [--budget SECONDS] >> gpu.txt

Cases, float32 on device 0, the same data shapes as the Go suite:

  elementwise, at 2^24, 2^26 and 2^28 elements, eager and torch.compile:
    poly4      a*b + c - e
    long8      tanh(a*b + c) - exp(e*0.5)*a + b
    bcast      a[n/4096, 4096] * row[4096] + b[n/4096, 4096]
    transpose  a.T + b, a and b square (4096², 8192², 16384²)
  copy, at the same sizes: out.copy_(a)
  reductions, 2^26 elements (an 8192×8192 matrix), eager (torch.sum) and
  torch.compile:
    summul     torch.sum(a*b)
    rows       a.sum(dim=1)
    cols       a.sum(dim=0)

Each run times --reps calls between two CUDA events (after a warm-up call
and a synchronisation) and prints one line in Go benchmark format
(golang.org/x/perf/benchfmt), so that bench/report reads it beside the Go
suite: BenchmarkTorch/<case>/<mode>/n=<n>, BenchmarkTorch/copy/n=<n> and
BenchmarkTorchReduce/<case>/<mode>/n=<n>, with ns/op (device time per call)
and MB/s. The bytes are those the Go suite counts for the same case: inputs
once and output once. The report takes the median of the --runs lines.

--budget stops starting new cases once that many seconds have passed (a
line "torch-skipped: <case>" says which were left out), so that the script
fits the time a GPU call allows.
"""
import argparse
import math
import time

import torch

SIZES = (1 << 24, 1 << 26, 1 << 28)
BCAST_COLS = 4096
REDUCE_SIDE = 8192


def poly4(a, b, c, e):
    return a * b + c - e


def long8(a, b, c, e):
    return torch.tanh(a * b + c) - torch.exp(e * 0.5) * a + b


def bcast(a, row, b):
    return a * row + b


def transpose(a, b):
    return a.t() + b


def summul(a, b):
    return torch.sum(a * b)


def rows(m):
    return m.sum(dim=1)


def cols(m):
    return m.sum(dim=0)


def timed(fn, reps):
    """Device milliseconds per call of fn over reps calls, after a warm-up."""
    fn()
    torch.cuda.synchronize()
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    for _ in range(reps):
        fn()
    end.record()
    end.synchronize()
    return start.elapsed_time(end) / reps


def line(name, ms, nbytes, reps):
    """One result in Go benchmark format: name, iterations, ns/op, MB/s."""
    print(f"Benchmark{name} \t{reps}\t{ms * 1e6:.0f} ns/op\t{nbytes / ms / 1e3:.2f} MB/s", flush=True)


class Budget:
    """Seconds left to start new cases."""

    def __init__(self, seconds):
        self.deadline = time.monotonic() + seconds if seconds > 0 else math.inf

    def allows(self, name):
        if time.monotonic() < self.deadline:
            return True
        print(f"torch-skipped: {name}", flush=True)
        return False


def measure(name, fn, nbytes, args):
    for _ in range(args.runs):
        line(name, timed(fn, args.reps), nbytes, args.reps)


def both_modes(suite, case, n, f, inputs, nbytes, args, budget):
    """Eager, then torch.compile (specialised to these shapes)."""
    for mode, fn in (("eager", f), ("compile", torch.compile(f, dynamic=False))):
        name = f"{suite}/{case}/{mode}/n={n}"
        if budget.allows(name):
            measure(name, lambda: fn(*inputs), nbytes, args)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--runs", type=int, default=10, help="lines per case (the report takes their median)")
    p.add_argument("--reps", type=int, default=20, help="calls timed per line")
    p.add_argument("--budget", type=float, default=0, help="seconds after which no new case starts (0: none)")
    p.add_argument("--sizes", default=",".join(str(n) for n in SIZES), help="elementwise sizes, comma-separated")
    args = p.parse_args()
    budget = Budget(args.budget)

    print(f"torch-device: {torch.cuda.get_device_name(0)}")
    print(f"torch: {torch.__version__} (CUDA {torch.version.cuda})")
    g = torch.Generator(device="cuda").manual_seed(1)

    # Reductions first: they are few and cheap to compile, and the budget
    # cuts from the end.
    n = REDUCE_SIDE * REDUCE_SIDE
    a, b = (torch.rand(n, device="cuda", generator=g) for _ in range(2))
    mat = a.view(REDUCE_SIDE, REDUCE_SIDE)
    both_modes("TorchReduce", "summul", n, summul, (a, b), 4 * (2 * n + 1), args, budget)
    both_modes("TorchReduce", "rows", n, rows, (mat,), 4 * (n + REDUCE_SIDE), args, budget)
    both_modes("TorchReduce", "cols", n, cols, (mat,), 4 * (n + REDUCE_SIDE), args, budget)
    del a, b, mat
    torch.cuda.empty_cache()

    for n in (int(s) for s in args.sizes.split(",")):
        ins = [torch.rand(n, device="cuda", generator=g) for _ in range(4)]
        out = torch.empty(n, device="cuda")
        if budget.allows(f"Torch/copy/n={n}"):
            measure(f"Torch/copy/n={n}", lambda: out.copy_(ins[0]), 8 * n, args)
        both_modes("Torch", "poly4", n, poly4, ins, 4 * 5 * n, args, budget)
        both_modes("Torch", "long8", n, long8, ins, 4 * 5 * n, args, budget)
        row = torch.rand(BCAST_COLS, device="cuda", generator=g)
        r = n // BCAST_COLS
        both_modes("Torch", "bcast", n, bcast, (ins[0].view(r, BCAST_COLS), row, ins[1].view(r, BCAST_COLS)),
                   4 * (3 * n + BCAST_COLS), args, budget)
        m = math.isqrt(n)
        if m * m == n:
            both_modes("Torch", "transpose", n, transpose, (ins[0].view(m, m), ins[1].view(m, m)), 4 * 3 * n, args, budget)
        del ins, out, row
        torch.cuda.empty_cache()



if __name__ == "__main__":
    main()
