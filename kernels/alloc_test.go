package kernels

import (
	"testing"

	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/tensor"
)

// TestAllocationsDoNotGrow checks that the allocations of an Assign are the
// program's, a fixed number whatever the tensors' size, on the serial and on
// the parallel path.
func TestAllocationsDoNotGrow(t *testing.T) {
	count := func(n int) float64 {
		a, b, c := tensor.Rand[float64](1, n), tensor.Rand[float64](2, n), tensor.Rand[float64](3, n)
		dst := tensor.Zeros[float64](n)
		e := expr.Of(a).Mul(b).Add(c).Tanh()
		return testing.AllocsPerRun(5, func() {
			if err := Assign(dst, e); err != nil {
				t.Fatal(err)
			}
		})
	}
	small, medium := count(100), count(parallelThreshold-1)
	large, huge := count(parallelThreshold*2), count(parallelThreshold*16)
	t.Logf("allocations per Assign: %v (n=100), %v (serial, large), %v and %v (parallel)", small, medium, large, huge)
	if small != medium {
		t.Errorf("serial path: %v allocations at n=100, %v at n=%d", small, medium, parallelThreshold-1)
	}
	if large != huge {
		t.Errorf("parallel path: %v allocations at n=%d, %v at n=%d", large, parallelThreshold*2, huge, parallelThreshold*16)
	}
	if small > 64 {
		t.Errorf("%v allocations per Assign: the program should need a few dozen at most (see docs/performance.md)", small)
	}
}
