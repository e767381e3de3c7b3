package shape

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestWalks checks the offsets the walks visit, in row-major order, for
// layouts with coalescible, transposed, broadcast (stride 0), negative and
// empty dimensions, and the early stop.
func TestWalks(t *testing.T) {
	tests := []struct {
		name    string
		s       Shape
		strides []int
		off     int
		want    []int
	}{
		{"scalar", Shape{}, []int{}, 7, []int{7}},
		{"contiguous", Shape{2, 3}, []int{3, 1}, 0, []int{0, 1, 2, 3, 4, 5}},
		{"transposed", Shape{3, 2}, []int{1, 3}, 0, []int{0, 3, 1, 4, 2, 5}},
		{"broadcast", Shape{2, 2}, []int{0, 1}, 4, []int{4, 5, 4, 5}},
		{"flipped", Shape{3}, []int{-2}, 4, []int{4, 2, 0}},
		{"empty", Shape{2, 0}, []int{0, 1}, 0, nil},
	}
	for _, tt := range tests {
		var got []int
		ForEachOffset(tt.s, tt.strides, tt.off, func(o int) { got = append(got, o) })
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%s: ForEachOffset (-want +got):\n%s", tt.name, diff)
		}
		var pairs [][2]int
		ForEachRun2(tt.s, tt.strides, nil, tt.off, 0, func(a, b, n, sa, sb int) bool {
			for i := range n {
				pairs = append(pairs, [2]int{a + i*sa, b + i*sb})
			}
			return true
		})
		for i, p := range pairs {
			if p[0] != tt.want[i] || p[1] != 0 {
				t.Errorf("%s: ForEachRun2 position %d = %v, want (%d, 0)", tt.name, i, p, tt.want[i])
			}
		}
	}
	runs := 0
	ForEachRun(Shape{4, 3}, []int{1, 4}, 0, func(off, n, stride int) bool { runs++; return false })
	if runs != 1 {
		t.Errorf("ForEachRun went on after fn returned false: %d runs", runs)
	}
}
