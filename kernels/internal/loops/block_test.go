package loops

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/laze-go/laze/internal/isa"
	"github.com/laze-go/laze/internal/isa/isatest"
	"github.com/laze-go/laze/internal/ops"
	"github.com/laze-go/laze/tensor"
)

// TestArgFoldLanes checks the arg reductions' block fold (the vector fold
// for the extreme value, then a scan for its lowest index) against the
// ordered fold by ops.ArgBetter, at every ISA level this CPU runs: values
// drawn from a few integers so that ties are common, with NaN, zeros of
// both signs and infinities in some blocks, indices rising, falling and
// constant (step 1, 3, -1, -2, 0), for argmax and argmin over float64,
// float32 and int64.
func TestArgFoldLanes(t *testing.T) {
	for _, level := range isa.Supported() {
		t.Run(level.String(), func(t *testing.T) {
			isatest.Use(t, level)
			argFoldMatches[float64](t)
			argFoldMatches[float32](t)
			argFoldMatches[int64](t)
		})
	}
}

func argFoldMatches[T tensor.Number](t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	specials := []float64{math.NaN(), 0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1)}
	for _, n := range []int{1, 2, 3, 7, 8, 9, 16, 17, 33, 64, 100, 257} {
		for trial := range 30 {
			v := make([]T, n)
			for i := range v {
				v[i] = T(r.IntN(7) - 3)
				if trial%3 == 1 && r.IntN(6) == 0 {
					f := specials[r.IntN(len(specials))]
					if _, isInt := any(v[i]).(int64); isInt && (f != f || math.IsInf(f, 0)) {
						continue
					}
					v[i] = T(f)
				}
			}
			for _, step := range []int64{1, 3, -1, -2, 0} {
				at := int64(5 * n)
				for _, op := range []ops.Op{ops.Maximum, ops.Minimum} {
					wantV, wantI := argFold(op, v, at, step)
					gotV, gotI := ArgFold(op, v, at, step)
					same := func(a, b T) bool { return a == b || (a != a && b != b) }
					if !same(gotV, wantV) || gotI != wantI {
						t.Fatalf("%T %v of %v (at %d, step %d): got %v at %d, want %v at %d\n%s",
							v, op, v, at, step, gotV, gotI, wantV, wantI, cmp.Diff(wantI, gotI))
					}
				}
			}
		}
	}
}

// TestGatherReversed checks a reversed gather (stride -1, a flipped
// operand: the lane loops' reversal for elements of 4 and 8 bytes where
// they run) against indexing, at every ISA level this CPU runs, for every
// dtype size, every length to four vectors past the widest lane count and
// reads ending at the start of src and inside it.
func TestGatherReversed(t *testing.T) {
	atEveryLevel(t, func(t *testing.T) {
		gatherReversed[float64](t)
		gatherReversed[float32](t)
		gatherReversed[int64](t)
		gatherReversed[uint32](t)
		gatherReversed[int16](t)
		gatherReversed[uint8](t)
	})
}

// atEveryLevel runs check as a subtest at every ISA level this CPU runs.
func atEveryLevel(t *testing.T, check func(t *testing.T)) {
	for _, level := range isa.Supported() {
		t.Run(level.String(), func(t *testing.T) {
			isatest.Use(t, level)
			check(t)
		})
	}
}

func gatherReversed[T tensor.Number](t *testing.T) {
	src := make([]T, 100)
	for i := range src {
		src[i] = T(i + 1)
	}
	for n := 0; n <= 40; n++ {
		for _, off := range []int{n - 1, n + 5, len(src) - 1} {
			if off < 0 {
				continue
			}
			got := make([]T, n)
			Gather(got, src, off, -1)
			want := make([]T, n)
			for i := range want {
				want[i] = src[off-i]
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Fatalf("%T: reversed gather of %d from %d (-want +got):\n%s", src[0], n, off, diff)
			}
		}
	}
}

// TestStoreInterleaved checks the store of a group of rows that share
// their values, written side by side (the lane loops' doubling for rows = 2
// and elements of 4 and 8 bytes where they run), against indexing, at every
// ISA level this CPU runs, for 1 to 5 rows, every length to four vectors
// past the widest lane count, and offsets into dst, leaving the elements
// around the run as they were.
func TestStoreInterleaved(t *testing.T) {
	atEveryLevel(t, func(t *testing.T) {
		storeInterleaved[float64](t)
		storeInterleaved[float32](t)
		storeInterleaved[int64](t)
		storeInterleaved[int32](t)
		storeInterleaved[int16](t)
	})
}

func storeInterleaved[T tensor.Number](t *testing.T) {
	for rows := 1; rows <= 5; rows++ {
		for n := 0; n <= 40; n++ {
			for _, off := range []int{0, 3} {
				v := make([]T, n)
				for i := range v {
					v[i] = T(i + 1)
				}
				got := make([]T, off+n*rows+2)
				want := make([]T, len(got))
				for i := range got {
					got[i], want[i] = 100, 100
				}
				for j := range n {
					for k := range rows {
						want[off+j*rows+k] = v[j]
					}
				}
				StoreInterleaved(got, off, n, rows, Value[T]{Vec: v})
				if diff := cmp.Diff(want, got); diff != "" {
					t.Fatalf("%T: %d values, %d rows, from %d (-want +got):\n%s", v, n, rows, off, diff)
				}
			}
		}
	}
}

// TestGather checks the pointer-walking gather against indexing, for
// positive, negative and zero-length walks of every remainder.
func TestGather(t *testing.T) {
	src := make([]float32, 200)
	for i := range src {
		src[i] = float32(i)
	}
	for _, c := range []struct{ off, stride int }{{0, 1}, {3, 7}, {199, -3}, {150, -1}, {5, 0}} {
		for n := 0; n <= 9; n++ {
			got := make([]float32, n)
			Gather(got, src, c.off, c.stride)
			want := make([]float32, n)
			for i := range want {
				want[i] = src[c.off+i*c.stride]
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("gather off %d stride %d n %d (-want +got):\n%s", c.off, c.stride, n, diff)
			}
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("a gather past the end of src did not panic")
		}
	}()
	Gather(make([]float32, 3), src, 190, 5)
}
