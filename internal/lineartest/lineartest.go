// Package lineartest measures the work of building and evaluating trees
// of two depths, for the tests that check that laze's passes take work
// linear in a tree's depth. It counts work (memo entries stored,
// allocations, bytes allocated), never time, so that the tests are exact
// on any machine and under any load.
package lineartest

import (
	"runtime"
	"testing"

	"github.com/laze-go/laze/internal/dag"
)

// Work is what a function did.
type Work struct {
	Puts   int64 // memo entries stored (dag.Puts): node visits of the walks that use one
	Allocs int64 // heap allocations
	Bytes  int64 // heap bytes allocated
}

// Measure runs f once and returns its work. Run it where no other
// goroutine of the test allocates. It first collects twice, which empties
// every sync.Pool (a collection moves a pool's items to its victim cache,
// the next drops them): what f takes from a pool is then allocated in
// every measurement alike, not only where a collection happened to clear
// the pool since the last call (under the race detector, which collects
// more often, bytes allocated varied sixfold between runs).
func Measure(f func()) Work {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&before)
	puts := dag.Puts()
	f()
	puts = dag.Puts() - puts
	runtime.ReadMemStats(&after)
	return Work{Puts: puts, Allocs: int64(after.Mallocs - before.Mallocs), Bytes: int64(after.TotalAlloc - before.TotalAlloc)}
}

// MaxRatio is the most the work at twice the depth may be, as a multiple
// of the work at the depth: linear work doubles (2×); work that grows with
// the square of the depth quadruples.
const MaxRatio = 2.5

// Linear measures f at depth/2 and at depth (f builds and evaluates a tree
// of the depth it is given) and fails t when any count of the deeper run is
// more than MaxRatio times the shallower run's (a count of 100 or less
// passes). f runs once at each depth before, so that what is filled once
// per process (caches, pools; the plan cache of package kernels, keyed by
// the tree's structure) is filled at both depths alike.
func Linear(t testing.TB, depth int, f func(depth int)) {
	t.Helper()
	f(depth / 2)
	f(depth)
	small := Measure(func() { f(depth / 2) })
	large := Measure(func() { f(depth) })
	t.Logf("depth %d: %+v; depth %d: %+v", depth/2, small, depth, large)
	for _, c := range []struct {
		what         string
		small, large int64
	}{
		{"memo entries", small.Puts, large.Puts},
		{"allocations", small.Allocs, large.Allocs},
		{"bytes allocated", small.Bytes, large.Bytes},
	} {
		if c.large > 100 && float64(c.large) > MaxRatio*float64(max(c.small, 1)) {
			t.Errorf("%s: %d at depth %d, %d at depth %d (%.1f×): the work grows faster than the depth",
				c.what, c.small, depth/2, c.large, depth, float64(c.large)/float64(max(c.small, 1)))
		}
	}
}
