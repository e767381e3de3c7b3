package shape

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// TestOdometer checks the walk against indices computed by unravelling each
// position 0, 1, … in row-major order, forwards and backwards, and checks
// that offsets moved by Step equal Offset at every index.
func TestOdometer(t *testing.T) {
	tests := []Shape{
		{}, {0}, {3}, {2, 3}, {3, 0, 2}, {2, 1, 3}, {1, 1}, {2, 2, 2, 2, 2, 2, 2, 2, 2}, // rank 9: past the inline buffer
	}
	for _, s := range tests {
		n, _ := s.Size()
		var want [][]int
		for p := range n {
			want = append(want, unravel(p, s))
		}
		strides := make([]int, len(s))
		for d := range strides {
			strides[d] = 3*d - 4 // negative, zero and positive strides
		}
		for _, reverse := range []bool{false, true} {
			o := NewOdometer(s)
			if reverse {
				o = NewReverseOdometer(s)
			}
			var got [][]int
			off := o.Offset(strides)
			for !o.Done() {
				got = append(got, slices.Clone(o.Index()))
				if want := o.Offset(strides); off != want {
					t.Fatalf("%v reverse=%v at %v: stepped offset %d, Offset %d", s, reverse, o.Index(), off, want)
				}
				off += o.Step(strides, o.Next())
			}
			expect := slices.Clone(want)
			if reverse {
				slices.Reverse(expect)
			}
			if diff := cmp.Diff(expect, got); diff != "" {
				t.Errorf("%v reverse=%v (-want +got):\n%s", s, reverse, diff)
			}
			if o.Next() != -1 {
				t.Errorf("%v: Next after the end did not return -1", s)
			}
		}
	}
}

// unravel returns the row-major index of position p in s.
func unravel(p int, s Shape) []int {
	idx := make([]int, len(s))
	for d := len(s) - 1; d >= 0; d-- {
		idx[d] = p % s[d]
		p /= s[d]
	}
	return idx
}

// TestOdometerAllocs checks that an odometer declared in a function and set
// with Reset allocates nothing for up to eight dimensions.
func TestOdometerAllocs(t *testing.T) {
	s := Shape{2, 3, 4}
	allocs := testing.AllocsPerRun(100, func() {
		var o Odometer
		for o.Reset(s); !o.Done(); o.Next() {
		}
	})
	if allocs != 0 {
		t.Errorf("%v allocations per walk, want 0", allocs)
	}
}

// TestUnravel checks Unravel, Ravel and FlatOffset against the Odometer's
// row-major order, for shapes with ones, a scalar and strides of any sign.
func TestUnravel(t *testing.T) {
	for _, tt := range []struct {
		s       Shape
		strides []int
	}{
		{Of(), []int{}},
		{Of(5), []int{-2}},
		{Of(2, 3), []int{3, 1}},
		{Of(3, 1, 4), []int{1, 100, -3}},
		{Of(2, 2, 2, 3), []int{0, 7, 2, 11}},
	} {
		index := make([]int, len(tt.s))
		flat := 0
		for o := NewOdometer(tt.s); !o.Done(); o.Next() {
			Unravel(flat, tt.s, index)
			if diff := cmp.Diff(o.Index(), index, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("Unravel(%d, %v) (-odometer +Unravel):\n%s", flat, tt.s, diff)
			}
			if got := Ravel(o.Index(), tt.s); got != flat {
				t.Errorf("Ravel(%v, %v) = %d, want %d", o.Index(), tt.s, got, flat)
			}
			want := 0
			for d, i := range o.Index() {
				want += i * tt.strides[d]
			}
			if got := FlatOffset(flat, tt.s, tt.strides); got != want {
				t.Errorf("FlatOffset(%d, %v, %v) = %d, want %d", flat, tt.s, tt.strides, got, want)
			}
			flat++
		}
	}
}
