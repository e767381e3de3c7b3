package kernels

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestGatherUnit checks x[idx]'s inner loop (four indices a trip while all
// four are in range, then one at a time) against indexing: indices
// positive and negative (counting from the end), every length to 13, and
// an index out of range (size, or below -size) at every position, where it
// must stop and name that position, every element before it written.
func TestGatherUnit(t *testing.T) {
	const size = 7
	x := make([]float64, size)
	for i := range x {
		x[i] = float64(10 + i)
	}
	r := rand.New(rand.NewPCG(3, 4))
	for n := 0; n <= 13; n++ {
		for bad := -1; bad < n; bad++ { // -1: none
			for _, badValue := range []int64{size, -size - 1} {
				index := make([]int64, n)
				for i := range index {
					index[i] = int64(r.IntN(2*size) - size)
				}
				if bad >= 0 {
					index[bad] = badValue
				}
				got := make([]float64, n)
				at, ok := gatherUnit(got, x, index)
				want := make([]float64, n)
				stop := n
				if bad >= 0 {
					stop = bad
				}
				for i := range stop {
					k := index[i]
					if k < 0 {
						k += size
					}
					want[i] = x[k]
				}
				name := fmt.Sprintf("n %d, index %d at %d", n, badValue, bad)
				if ok != (bad < 0) || (bad >= 0 && at != bad) {
					t.Fatalf("%s: gatherUnit returned (%d, %v)", name, at, ok)
				}
				if diff := cmp.Diff(want[:stop], got[:stop]); diff != "" {
					t.Fatalf("%s (-want +got):\n%s", name, diff)
				}
			}
		}
	}
}
