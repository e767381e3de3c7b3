//go:build cuda

package main

import (
	"strings"
	"testing"
)

// TestCUDAMatchesCPU runs random eval command lines (randexpr_test.go) with
// -device cuda and with -device cpu, in process, and compares the .npy
// results: the same dtype and shape, integers and bools exactly, floats
// within closeEnough's tolerance (float32: 1e-4 relative + 1e-5; float64:
// 1e-9 relative + 1e-12, or float32's where float32 took part:
// computesInFloat32), as GPU transcendental functions differ from Go's
// in the last bits and a GPU sums in another order. The generator keeps
// such inexact values away from comparisons, // and %, argmax and where's
// condition, so that integers stay exact. It needs a GPU (tag cuda). Any
// GPU failure where the CPU succeeds fails the test (integer products run
// a generated kernel).
func TestCUDAMatchesCPU(t *testing.T) {
	const n = 400
	failures := 0
	for i, c := range randomCLICases(2, n) {
		seed := uint64(i)
		dir := t.TempDir()
		cpuPath, cpuFail, cpuOK := evalToFile(dir, "cpu", c, seed)
		gpuPath, gpuFail, gpuOK := evalToFile(dir, "cuda", c, seed)
		if !cpuOK || !gpuOK {
			t.Errorf("case %d: %s\ncpu: %s\ncuda: %s", i, c.expr, cpuFail, gpuFail)
			failures++
			if failures > 10 {
				t.Fatal("too many failures")
			}
			continue
		}
		if diff := compareNPY(cpuPath, gpuPath, c.computesInFloat32()); diff != "" {
			t.Errorf("case %d: exprdemo eval -seed %d %s -- '%s' (-cpu +cuda):\n%s", i, seed, strings.Join(c.rands, " "), c.expr, diff)
			failures++
			if failures > 10 {
				t.Fatal("too many failures")
			}
		}
	}
}

// TestCUDAExplain runs issue 16's command: -device cuda -explain prints the
// tree, the program (with the CUDA kernels it launches) and the kernels'
// source, then the result.
func TestCUDAExplain(t *testing.T) {
	var stdout, stderr strings.Builder
	args := []string{"eval", "-device", "cuda", "-explain", "-rand", "x=2x3:int32", "x / 2 + x.T.sum()"}
	if status := run(args, &stdout, &stderr); status != 0 {
		t.Fatalf("exprdemo %q: exit status %d\n%s%s", args, status, stdout.String(), stderr.String())
	}
	out := stdout.String()
	want := []string{"tree:   ", "shape:  (2,3)", "dtype:  float64", "plan:", "CUDA kernel laze_", "cuda:", "__global__ void laze_", "[["}
	rest := out
	for _, w := range want {
		k := strings.Index(rest, w)
		if k < 0 {
			t.Fatalf("missing (or out of order) %q in:\n%s", w, out)
		}
		rest = rest[k+len(w):]
	}
	if strings.Contains(out, "goroutine") {
		t.Errorf("the device plan describes the CPU's loops:\n%s", out)
	}
}
