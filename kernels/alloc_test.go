package kernels

import (
	"math"
	"testing"

	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/kernels/internal/cpu"
	"github.com/laze-go/laze/tensor"
)

// TestAllocationsDoNotGrow checks that the allocations of an Assign are the
// program's, a fixed number whatever the tensors' size, on the serial and on
// the parallel path.
func TestAllocationsDoNotGrow(t *testing.T) {
	if raceEnabled {
		t.Skip("under the race detector sync.Pool drops items at random, so counts vary; make test checks them in its run without it")
	}
	count := func(n int) float64 {
		a, b, c := tensor.Rand[float64](1, n), tensor.Rand[float64](2, n), tensor.Rand[float64](3, n)
		dst := tensor.Zeros[float64](n)
		e := expr.Of(a).Mul(b).Add(c).Tanh()
		return fewestAllocs(func() {
			if err := Assign(dst, e); err != nil {
				t.Fatal(err)
			}
		})
	}
	var small, medium, large, huge float64
	withConfig(cpu.BlockSize, math.MaxInt, 0, func() { small, medium = count(100), count(200000) })
	withConfig(cpu.BlockSize, 0, 2, func() { large, huge = count(5000), count(1000000) })
	t.Logf("allocations per Assign: %v and %v (serial), %v and %v (parallel)", small, medium, large, huge)
	if small != medium {
		t.Errorf("serial path: %v allocations at n=100, %v at n=200000", small, medium)
	}
	if large != huge {
		t.Errorf("parallel path: %v allocations at n=5000, %v at n=1000000", large, huge)
	}
	if small > 64 {
		t.Errorf("%v allocations per Assign: the program should need a few dozen at most (see docs/performance.md)", small)
	}
}

// fewestAllocs returns the fewest allocations per call of f over a few
// measurements (testing.AllocsPerRun, each with its warm-up call), after
// the memory of earlier tests' unreachable tensors is given back (settle).
// AllocsPerRun counts every malloc of the process while f runs: a cleanup
// of an earlier test's tensor, or a collection that empties a sync.Pool f
// draws from, adds to one measurement now and then (under load, on two
// cores), never takes away; what f itself allocates is in every
// measurement, so the minimum is f's count, and one that grows with the
// size still shows in it.
func fewestAllocs(f func()) float64 {
	settle()
	fewest := math.Inf(1)
	for range 3 {
		fewest = min(fewest, testing.AllocsPerRun(5, f))
	}
	return fewest
}
