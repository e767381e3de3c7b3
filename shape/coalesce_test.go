package shape

import (
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestCoalesce(t *testing.T) {
	tests := []struct {
		name        string
		shape       Shape
		strides     [][]int
		wantShape   Shape
		wantStrides [][]int
	}{
		{"contiguous folds to 1-D", Of(2, 3, 4), [][]int{{12, 4, 1}, {12, 4, 1}}, Of(24), [][]int{{1}, {1}}},
		{"broadcast row blocks merge", Of(2, 3, 4), [][]int{{12, 4, 1}, {0, 0, 1}}, Of(6, 4), [][]int{{4, 1}, {0, 1}}},
		{"scalar operand merges everywhere", Of(2, 3), [][]int{{3, 1}, {0, 0}}, Of(6), [][]int{{1}, {0}}},
		{"transposed operand blocks merge", Of(3, 2), [][]int{{2, 1}, {1, 3}}, Of(3, 2), [][]int{{2, 1}, {1, 3}}},
		{"size-1 dims dropped", Of(1, 5, 1, 2), [][]int{{10, 2, 2, 1}}, Of(10), [][]int{{1}}},
		{"all ones", Of(1, 1), [][]int{{1, 1}, {5, 7}}, Of(1), [][]int{{0}, {0}}},
		{"scalar", Of(), [][]int{{}}, Of(1), [][]int{{0}}},
		{"empty", Of(4, 0, 3), [][]int{{0, 3, 1}}, Of(0), [][]int{{0}}},
		{"stepped slice keeps inner", Of(4, 3), [][]int{{6, 2}}, Of(12), [][]int{{2}}},
		{"gap between rows", Of(4, 3), [][]int{{5, 1}}, Of(4, 3), [][]int{{5, 1}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			gotShape, gotStrides := Coalesce(tt.shape, tt.strides...)
			if diff := cmp.Diff(tt.wantShape, gotShape); diff != "" {
				t.Errorf("shape (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.wantStrides, gotStrides); diff != "" {
				t.Errorf("strides (-want +got):\n%s", diff)
			}
		})
	}
}

// TestCoalescePreservesOffsets checks on random layouts that the coalesced
// iteration visits, for every operand, exactly the offsets of the original
// iteration in the same order.
func TestCoalescePreservesOffsets(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 500; trial++ {
		ndim := rng.IntN(5)
		s := make(Shape, ndim)
		for i := range s {
			s[i] = rng.IntN(4) + 1
		}
		operands := make([][]int, 1+rng.IntN(3))
		for k := range operands {
			operands[k] = randomStrides(rng, s)
		}
		cs, cst := Coalesce(s, operands...)
		for k := range operands {
			want := offsets(s, operands[k])
			got := offsets(cs, cst[k])
			if diff := cmp.Diff(want, got); diff != "" {
				t.Fatalf("shape %v strides %v → %v %v: offsets differ (-want +got):\n%s", s, operands[k], cs, cst[k], diff)
			}
		}
	}
}

// randomStrides returns strides of a contiguous layout of s, possibly
// permuted, stepped or broadcast in some dimensions.
func randomStrides(rng *rand.Rand, s Shape) []int {
	st := ContiguousStrides(s, RowMajor)
	if rng.IntN(3) == 0 {
		st = ContiguousStrides(s, ColMajor)
	}
	for i := range st {
		switch rng.IntN(6) {
		case 0:
			st[i] = 0
		case 1:
			st[i] *= 2
		}
	}
	return st
}

// offsets lists the element offsets of a row-major walk over s.
func offsets(s Shape, strides []int) []int {
	n, _ := s.Size()
	out := make([]int, 0, n)
	idx := make([]int, len(s))
	for range n {
		off := 0
		for d, i := range idx {
			off += i * strides[d]
		}
		out = append(out, off)
		for d := len(s) - 1; d >= 0; d-- {
			idx[d]++
			if idx[d] < s[d] {
				break
			}
			idx[d] = 0
		}
	}
	return out
}
