package kernels

import (
	"strings"
	"testing"

	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/tensor"
)

// TestExplainScansAndConcatenations checks that Explain and CUDASource
// describe a scan as its own step and a concatenation as one pass per part,
// and that neither writes anything.
func TestExplainScansAndConcatenations(t *testing.T) {
	a := mustFrom(t, []float64{1, 2, 3, 4, 5, 6}, 2, 3)
	dst := tensor.Zeros[float64](2, 3)
	out, err := Explain(dst, expr.Of(expr.CumSum[float64](expr.Name("a", a), 1)).MulScalar(2))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"cumsum of a along axis 1", "2 lines of 3", "step 2:"} {
		if !strings.Contains(out, want) {
			t.Errorf("Explain of a scan lacks %q:\n%s", want, out)
		}
	}
	big := tensor.Zeros[float64](4, 3)
	out, err = Explain(big, expr.Concatenate[float64](0, expr.Name("a", a), expr.Of[float64](expr.Name("a", a)).Neg()))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "step 1:") || !strings.Contains(out, "step 2:") || strings.Contains(out, "step 3:") {
		t.Errorf("Explain of a concatenation of two parts: want two steps:\n%s", out)
	}
	src, err := CUDASource(dst, expr.CumProd[float64](a, 0))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(src, "scan prod float64") || !strings.Contains(src, "acc = (T)(acc * o1[base + k * inner]);") {
		t.Errorf("CUDA source of a cumprod:\n%s", src)
	}
	for _, v := range dst.Data() {
		if v != 0 {
			t.Fatalf("Explain wrote the destination: %v", dst.Data())
		}
	}
}

// TestExplainScanOnDevice follows the device path for a scan and a
// concatenation on the fake GPU: the scan's kernel is listed and no copy
// to the host is needed.
func TestExplainScanOnDevice(t *testing.T) {
	x := onGPU(t, tensor.Arange[float32](0, 6, 1))
	x2, _ := x.View(2, 3)
	dst := tensor.New[float32]([]int{2, 3}, tensor.WithAllocator(fakeGPU))
	out, err := Explain(dst, expr.Of(expr.CumSum[float32](expr.Name("x", x2), 0)).AddScalar(1))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"cumsum of x along axis 0", "one thread per line", "a scan of 3 lines", "CUDA kernel laze_", "6 elements"} {
		if !strings.Contains(out, want) {
			t.Errorf("device Explain of a scan lacks %q:\n%s", want, out)
		}
	}
	big := tensor.New[float32]([]int{4, 3}, tensor.WithAllocator(fakeGPU))
	out, err = Explain(big, expr.Concatenate[float32](0, expr.Name("x", x2), expr.Name("x", x2)))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Count(out, "CUDA kernel laze_") != 2 || strings.Contains(out, "scan") {
		t.Errorf("device Explain of a concatenation of two parts: want two kernels:\n%s", out)
	}
}
