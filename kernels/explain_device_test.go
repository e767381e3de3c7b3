package kernels

import (
	"errors"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// The tests of Explain and CUDASource on device tensors (the fake GPU of
// device_test.go): they follow the device path of Assign without launching
// anything, so what they list must be what Assign, run against the
// recording backend, launches.

// deviceCase is one assignment on the fake GPU.
type deviceCase struct {
	name string
	dst  func() *tensor.Tensor[float32]
	e    func(dst *tensor.Tensor[float32]) expr.Exp[float32]
	want []string // substrings of Explain's listing, in order
}

func deviceCases(t *testing.T) []deviceCase {
	x := onGPU(t, tensor.Arange[float32](0, 6, 1))
	x2, _ := x.View(2, 3)
	w := onGPU(t, tensor.Rand[float32](1, 3, 4))
	b := onGPU(t, tensor.Rand[float32](2, 4))
	empty := onGPU(t, tensor.Zeros[float32](0, 3))
	X, W, B := expr.Name("x", x2), expr.Name("w", w), expr.Name("b", b)
	newDst := func(dims ...int) func() *tensor.Tensor[float32] {
		return func() *tensor.Tensor[float32] {
			return tensor.New[float32](shape.Shape(dims), tensor.WithAllocator(fakeGPU))
		}
	}
	return []deviceCase{
		{"fused elementwise", newDst(2, 3), func(*tensor.Tensor[float32]) expr.Exp[float32] {
			return expr.Of(X).MulScalar(2).Add(X).Sigmoid()
		}, []string{"step 1: dst (2,3) float32 = sigmoid(((x * 2) + x))", "CUDA kernel laze_", "6 elements",
			"in0  x strides (1,) offset 0, read in place", "c0   = 2", "out  = sigmoid("}},
		{"broadcast operand", newDst(2, 4), func(*tensor.Tensor[float32]) expr.Exp[float32] {
			return expr.Of[float32](expr.MatMul[float32](X, W)).Add(B).ReLU()
		}, []string{"step 1: dst (2,4) float32 = relu(((x @ w) + b))", "first x @ w on cuda:5: M=2 K=3 N=4, one call per matrix",
			"cuBLAS sgemm, M=2 N=4 K=3", "CUDA kernel laze_", "8 elements", "b strides (0,1) offset 0, broadcast"}},
		{"reduction then the tree", newDst(2, 3), func(*tensor.Tensor[float32]) expr.Exp[float32] {
			return expr.Of(X).Sub(expr.Mean[float32](X, expr.Axis(0)))
		}, []string{"step 1: t1 (3,) float32 = mean of x over axes (0,)", "a reduction into 3 results",
			"fold in0 into out with mean", "step 2: dst (2,3)", "in1  t1 strides (0,1)"}},
		{"transposed product operand: a contiguous copy first", newDst(4, 4), func(*tensor.Tensor[float32]) expr.Exp[float32] {
			return expr.MatMul[float32](expr.Name("w.T", w.T()), W)
		}, []string{"step 1: t1 (4,3) float32 = w.T", "CUDA kernel laze_", "12 elements",
			"step 2: dst (4,4) float32 = (w.T @ w)", "w.T read through a contiguous copy", "cuBLAS sgemm, M=4 N=4 K=3", "nothing to do"}},
		{"an operand overlapping dst: copied first", newDst(6), func(dst *tensor.Tensor[float32]) expr.Exp[float32] {
			return expr.Add[float32](expr.Name("d", dst), expr.Name("d[::-1]", dst.Slice(0, tensor.None, tensor.None, -1)))
		}, []string{"step 1: t1 (6,) float32 = d[::-1]", "6 elements", "step 2: d (6,) float32 = (d + d[::-1])",
			"t1, a copy of d[::-1] (it overlaps the destination)"}},
		{"no elements", newDst(0, 3), func(*tensor.Tensor[float32]) expr.Exp[float32] {
			return expr.Of(empty).Exp()
		}, []string{"step 1: dst (0,3) float32", "no kernel: there are no elements"}},
	}
}

// launched runs Assign against a fresh recorder and returns its kernels
// as Explain lists them (their names masked: a kernel's variant may depend
// on the addresses of its operands, which differ from Explain's
// temporaries to Assign's) and the number of products.
func launched(t *testing.T, dst *tensor.Tensor[float32], e expr.Exp[float32]) ([]string, int) {
	r := withRecorder(t)
	if err := Assign(dst, e); err != nil {
		t.Fatalf("Assign: %v", err)
	}
	var lines []string
	for _, k := range r.launches {
		lines = append(lines, maskNames(queued{kernel: k}.describe()))
	}
	return lines, len(r.gemms)
}

var kernelNamePattern = regexp.MustCompile(`laze_[0-9a-f]{16}`)

// maskNames replaces kernel names with laze_*.
func maskNames(s string) string { return kernelNamePattern.ReplaceAllString(s, "laze_*") }

// kernelLines returns Explain's kernel lines, names masked, in order.
func kernelLines(listing string) []string {
	var lines []string
	for _, l := range strings.Split(listing, "\n") {
		if l = strings.TrimSpace(l); strings.HasPrefix(l, "CUDA kernel ") {
			lines = append(lines, maskNames(l))
		}
	}
	return lines
}

// TestExplainDevice checks Explain on device tensors: the steps and the
// facts of each, the kernels being exactly those Assign launches, and
// nothing launched, written or left allocated by Explain itself.
func TestExplainDevice(t *testing.T) {
	for _, c := range deviceCases(t) {
		t.Run(c.name, func(t *testing.T) {
			r := withRecorder(t)
			dst := c.dst()
			// Explain may allocate temporaries but must release them. The
			// collector's cleanups may release other tests' unreachable
			// tensors meanwhile, so BytesInUse may fall, never rise.
			before := fakeGPU.Stats().BytesInUse
			got, err := Explain(dst, c.e(dst))
			if err != nil {
				t.Fatal(err)
			}
			if len(r.launches) != 0 || len(r.gemms) != 0 || r.waits != 0 {
				t.Errorf("Explain launched %d kernels, %d products, waited %d times; want none", len(r.launches), len(r.gemms), r.waits)
			}
			if after := fakeGPU.Stats().BytesInUse; after > before {
				t.Errorf("device bytes in use %d after Explain, %d before: Explain left memory allocated", after, before)
			}
			if strings.Contains(got, "goroutine") || strings.Contains(got, "gonum") {
				t.Errorf("a device listing names the CPU's ways:\n%s", got)
			}
			rest := got
			for _, w := range c.want {
				k := strings.Index(rest, w)
				if k < 0 {
					t.Fatalf("missing (or out of order) %q in:\n%s", w, got)
				}
				rest = rest[k+len(w):]
			}
			lines, gemms := launched(t, dst, c.e(dst))
			if diff := cmp.Diff(lines, kernelLines(got)); diff != "" {
				t.Errorf("kernels (-Assign +Explain):\n%s\n%s", diff, got)
			}
			if n := strings.Count(got, "cuBLAS "); n != gemms {
				t.Errorf("%d cuBLAS calls listed, %d made by Assign:\n%s", n, gemms, got)
			}
		})
	}
}

// TestCUDASourceDevice checks that CUDASource on device tensors gives the
// source of every kernel Assign launches, in order, and a comment for each
// product.
func TestCUDASourceDevice(t *testing.T) {
	for _, c := range deviceCases(t) {
		t.Run(c.name, func(t *testing.T) {
			r := withRecorder(t)
			dst := c.dst()
			got, err := CUDASource(dst, c.e(dst))
			if err != nil {
				t.Fatal(err)
			}
			if len(r.launches) != 0 || len(r.gemms) != 0 {
				t.Errorf("CUDASource launched %d kernels, %d products; want none", len(r.launches), len(r.gemms))
			}
			lines, gemms := launched(t, dst, c.e(dst))
			if n := strings.Count(got, "__global__ void laze_"); n != len(lines) {
				t.Errorf("%d kernels in the source, %d launched by Assign:\n%s", n, len(lines), got)
			}
			if n := strings.Count(got, "// cuBLAS sgemm"); n != gemms {
				t.Errorf("%d cuBLAS comments, %d products made by Assign:\n%s", n, gemms, got)
			}
		})
	}
}

// TestExplainDeviceErrors checks that Explain and CUDASource on device
// tensors return Assign's errors: mixed devices, and whatever the device
// refuses (the same error as Assign's, or none when Assign takes it).
func TestExplainDeviceErrors(t *testing.T) {
	withRecorder(t)
	gpu := tensor.New[float32](shape.Shape{4}, tensor.WithAllocator(fakeGPU))
	host := tensor.Ones[float32](4)
	i := tensor.New[int32](shape.Shape{4, 4}, tensor.WithAllocator(fakeGPU))
	mixed := []struct {
		name string
		err  func(f func(*tensor.Tensor[float32], expr.Exp[float32]) (string, error)) error
	}{
		{"a CPU operand in a GPU tree", func(f func(*tensor.Tensor[float32], expr.Exp[float32]) (string, error)) error {
			_, err := f(gpu, expr.Add[float32](gpu, host))
			return err
		}},
		{"a GPU tree into a CPU destination", func(f func(*tensor.Tensor[float32], expr.Exp[float32]) (string, error)) error {
			_, err := f(host, expr.Add[float32](gpu, gpu))
			return err
		}},
	}
	for _, m := range mixed {
		for name, f := range map[string]func(*tensor.Tensor[float32], expr.Exp[float32]) (string, error){
			"Explain": Explain[float32], "CUDASource": CUDASource[float32]} {
			err := m.err(f)
			if !errors.Is(err, shape.ErrDevice) || !strings.Contains(err.Error(), "cpu") || !strings.Contains(err.Error(), "cuda:5") {
				t.Errorf("%s, %s: %v; want a DeviceError naming both devices", m.name, name, err)
			}
		}
	}
	// An integer product: Explain answers as Assign does.
	prod := expr.Of[int32](expr.MatMul[int32](i, i))
	assignErr := Assign(i, prod)
	for name, f := range map[string]func(*tensor.Tensor[int32], expr.Exp[int32]) (string, error){
		"Explain": Explain[int32], "CUDASource": CUDASource[int32]} {
		_, err := f(i, prod)
		if (err == nil) != (assignErr == nil) || (err != nil && strings.Replace(err.Error(), name, "Assign", 1) != assignErr.Error()) {
			t.Errorf("%s of an int32 product on the GPU: %v; Assign returns %v", name, err, assignErr)
		}
	}
}
