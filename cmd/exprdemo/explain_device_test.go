//go:build !cuda

package main

import (
	"strings"
	"testing"

	"github.com/laze-go/laze/alloc"
	"github.com/laze-go/laze/internal/fakedev"
	"github.com/laze-go/laze/kernels"
)

// nullBackend takes every launch and runs none: the fake GPU's results are
// not computed, only explained.
type nullBackend struct{}

func (nullBackend) DefaultQueue(alloc.Device) (kernels.Queue, error) { return nullBackend{}, nil }
func (nullBackend) Device() alloc.Device                             { return alloc.CUDA(3) }
func (nullBackend) Wait() error                                      { return nil }
func (nullBackend) Defer(f func())                                   { f() }
func (nullBackend) Launch(kernels.Queue, *kernels.Kernel) error      { return nil }
func (nullBackend) Gemm(kernels.Queue, kernels.Gemm) error           { return nil }

// TestExplainDeviceCommand runs issue 16's command line in process on a
// fake GPU (internal/fakedev; a binary without the cuda tag has no real
// one): -device cuda -explain prints the tree, the plan with each step's
// CUDA kernels, and their source. It failed with "Explain: the destination
// and the expression are on different devices: cpu and cuda:0". The GPU
// runs it for real in cuda_cli_test.go.
func TestExplainDeviceCommand(t *testing.T) {
	fakedev.New(alloc.CUDA(3))
	kernels.RegisterBackend(alloc.KindCUDA, nullBackend{})
	old := openCUDA
	openCUDA = func() (alloc.Device, error) { return alloc.CUDA(3), nil }
	t.Cleanup(func() { openCUDA = old })

	var stdout, stderr strings.Builder
	args := []string{"eval", "-device", "cuda", "-explain", "-rand", "x=2x3:int32", "x / 2 + x.T.sum()"}
	if status := run(args, &stdout, &stderr); status != 0 {
		t.Fatalf("exprdemo %q: exit status %d\n%s%s", args, status, stdout.String(), stderr.String())
	}
	out := stdout.String()
	want := []string{
		"parsed: ((x / 2) + x.T.sum())",
		"tree:   ((float64(x) / 2) + float64(sum(int64(x.T))))",
		"shape:  (2,3)", "dtype:  float64", "plan:",
		"step 1: t1 () int64 = sum of int64(x.T)", "CUDA kernel laze_", "a reduction into 1 result",
		"dst (2,3) float64 = ((float64(x) / 2) + float64(sum(int64(x.T))))", "CUDA kernel laze_", "6 elements",
		"cuda:", "__global__ void laze_", "__global__ void laze_",
	}
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
