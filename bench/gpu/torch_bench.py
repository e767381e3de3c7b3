#!/usr/bin/env python3
"""PyTorch reference for the GPU suite (bench/cuda_test.go): poly4 and long8 on
float32 CUDA tensors at 2^24, 2^26, 2^28 elements, eager and torch.compile,
against torch's own device-to-device copy, timed with CUDA events.

Run on the GPU machine and append to the Go suite's output:

    python3 bench/gpu/torch_bench.py >> gpu.txt

It prints Go benchmark format (golang.org/x/perf/benchfmt), so that
`make report` reads it beside the Go suite: one line per run, named
BenchmarkTorch/<case>/<mode>/n=<n> and BenchmarkTorch/copy/n=<n>, with ns/op
and MB/s. The bytes counted are those of the inputs and the output, as the
Go suite counts them (copy: read + written)."""
import torch

RUNS = 10  # as many as the Go suite's -count, for the report's medians


def poly4(a, b, c, e):
    return a * b + c - e


def long8(a, b, c, e):
    return torch.tanh(a * b + c) - torch.exp(e * 0.5) * a + b


def timed(fn, reps=20):
    """Milliseconds per call of fn, averaged over reps calls after a warm-up."""
    fn()
    torch.cuda.synchronize()
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    for _ in range(reps):
        fn()
    end.record()
    torch.cuda.synchronize()
    return start.elapsed_time(end) / reps


def line(name, ms, nbytes, reps=20):
    """One result in Go benchmark format: name, iterations, ns/op, MB/s."""
    print(f"BenchmarkTorch/{name} \t{reps}\t{ms * 1e6:.0f} ns/op\t{nbytes / ms / 1e3:.2f} MB/s", flush=True)


def main():
    print(f"torch-device: {torch.cuda.get_device_name(0)}")
    print(f"torch: {torch.__version__}")
    for n in (1 << 24, 1 << 26, 1 << 28):
        g = torch.Generator(device="cuda").manual_seed(1)
        ins = [torch.rand(n, device="cuda", generator=g) for _ in range(4)]
        out = torch.empty(n, device="cuda")
        for _ in range(RUNS):
            line(f"copy/n={n}", timed(lambda: out.copy_(ins[0])), 8 * n)
        for name, f in (("poly4", poly4), ("long8", long8)):
            compiled = torch.compile(f)
            for mode, fn in (("eager", f), ("compile", compiled)):
                for _ in range(RUNS):
                    line(f"{name}/{mode}/n={n}", timed(lambda: fn(*ins)), 20 * n)
        del ins, out
        torch.cuda.empty_cache()


if __name__ == "__main__":
    main()
