package tensor

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestIteration(t *testing.T) {
	a := arange(24, 2, 3, 4)
	views := map[string]*Tensor[int64]{
		"contiguous": a,
		"transposed": a.Permute(2, 0, 1),
		"stepped":    a.Slice(2, None, None, -2),
		"broadcast":  second2(a.Index(1, 0).Unsqueeze(1).Expand(2, 3, 4)),
		"scalar":     a.Index(0, 1).Index(0, 1).Index(0, 1),
		"empty":      a.Slice(0, 1, 1, 1),
	}
	for name, v := range views {
		t.Run(name, func(t *testing.T) {
			want := values(v)
			var gotIdx [][]int
			var gotAll []int64
			for idx, x := range v.All() {
				gotIdx = append(gotIdx, slices.Clone(idx))
				gotAll = append(gotAll, x)
			}
			if diff := cmp.Diff(want, orEmpty(gotAll)); diff != "" {
				t.Errorf("All values (-want +got):\n%s", diff)
			}
			var wantIdx [][]int
			for idx := range indices(v.shape) {
				wantIdx = append(wantIdx, idx)
			}
			if diff := cmp.Diff(wantIdx, gotIdx); diff != "" {
				t.Errorf("All indices (-want +got):\n%s", diff)
			}
			var gotVals []int64
			for x := range v.Values() {
				gotVals = append(gotVals, x)
			}
			if diff := cmp.Diff(want, orEmpty(gotVals)); diff != "" {
				t.Errorf("Values (-want +got):\n%s", diff)
			}
			var back []int64
			var backIdx [][]int
			for idx, x := range v.Backward() {
				back = append(back, x)
				backIdx = append(backIdx, slices.Clone(idx))
			}
			slices.Reverse(back)
			slices.Reverse(backIdx)
			if diff := cmp.Diff(want, orEmpty(back)); diff != "" {
				t.Errorf("Backward (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(wantIdx, backIdx); diff != "" {
				t.Errorf("Backward indices (-want +got):\n%s", diff)
			}
		})
	}
}

func orEmpty(v []int64) []int64 {
	if v == nil {
		return []int64{}
	}
	return v
}

func TestIterationBreaks(t *testing.T) {
	a := arange(24, 2, 3, 4).T()
	n := 0
	for range a.All() {
		n++
		if n == 5 {
			break
		}
	}
	m := 0
	for range a.Values() {
		m++
		if m == 7 {
			break
		}
	}
	k := 0
	for range a.Backward() {
		k++
		if k == 3 {
			break
		}
	}
	if n != 5 || m != 7 || k != 3 {
		t.Errorf("break did not stop the iterators: %d %d %d", n, m, k)
	}
}
