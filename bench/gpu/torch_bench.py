#!/usr/bin/env python3
"""PyTorch reference for the GPU suite (bench/cuda_test.go): poly4 and long8 on
float32 CUDA tensors at 2^24, 2^26, 2^28 elements, eager and torch.compile,
against torch's own device-to-device copy, timed with CUDA events.

Run on the GPU machine: python3 bench/gpu/torch_bench.py
Prints one line per case: name, n, milliseconds, GB/s (inputs + output bytes,
as the Go suite counts them) and the share of the copy bandwidth."""
import torch

def poly4(a, b, c, e):
    return a * b + c - e

def long8(a, b, c, e):
    return torch.tanh(a * b + c) - torch.exp(e * 0.5) * a + b

def timed(fn, reps=20):
    fn()
    torch.cuda.synchronize()
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    for _ in range(reps):
        fn()
    end.record()
    torch.cuda.synchronize()
    return start.elapsed_time(end) / reps

def main():
    print("device:", torch.cuda.get_device_name(0), "torch", torch.__version__)
    for n in (1 << 24, 1 << 26, 1 << 28):
        g = torch.Generator(device="cuda").manual_seed(1)
        ins = [torch.rand(n, device="cuda", generator=g) for _ in range(4)]
        out = torch.empty(n, device="cuda")
        copy_ms = timed(lambda: out.copy_(ins[0]))
        copy_gbs = 8 * n / copy_ms / 1e6
        print(f"copy n={n} {copy_ms:.3f} ms {copy_gbs:.0f} GB/s")
        for name, f in (("poly4", poly4), ("long8", long8)):
            compiled = torch.compile(f)
            for mode, fn in (("eager", f), ("compile", compiled)):
                ms = timed(lambda: fn(*ins))
                gbs = 20 * n / ms / 1e6
                print(f"{name} {mode} n={n} {ms:.3f} ms {gbs:.0f} GB/s {100 * gbs / copy_gbs:.0f}% of copy")
        del ins, out
        torch.cuda.empty_cache()

if __name__ == "__main__":
    main()
